DROP TABLE server_secrets;
