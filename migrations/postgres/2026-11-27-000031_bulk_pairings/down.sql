DROP TABLE bulk_seats;
DROP TABLE bulk_pairings;
