DROP TABLE blocks;
DROP TABLE game_notes;
DROP TABLE chat_reads;
DROP TABLE chat_messages;
