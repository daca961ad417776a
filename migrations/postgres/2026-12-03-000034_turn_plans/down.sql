DROP TABLE plan_outcomes;
DROP TABLE turn_plans;
