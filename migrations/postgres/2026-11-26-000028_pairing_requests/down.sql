DROP TABLE pairing_requests;
