DROP TABLE name_changes;
