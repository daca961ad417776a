DROP TABLE rematches;
DROP TABLE pairing_requests;
