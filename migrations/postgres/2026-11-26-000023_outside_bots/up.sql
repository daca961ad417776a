-- Outside bots: accounts their owners marked as programs that play through the API. Like the
-- server's bots they have is_bot set (they are shown as bots and accept invitations at once);
-- unlike them they sign in, get notices on their stream, and no worker of the server plays them.
ALTER TABLE users ADD COLUMN outside_bot BOOLEAN NOT NULL DEFAULT FALSE;
