-- An event's registration window: entries are taken from this moment (NULL: from its making)
-- until it starts, so that an event announced weeks ahead can open a day before, as OGS does.
ALTER TABLE events ADD COLUMN registration_opens_at BIGINT;
