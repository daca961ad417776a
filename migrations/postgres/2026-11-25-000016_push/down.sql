DROP TABLE push_deliveries;
DROP TABLE push_subscriptions;
