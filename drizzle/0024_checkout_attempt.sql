-- The checkout's record names the attempt that stored it (its claim token, src/carts/checkout.ts).
-- The record is then one statement sent once, without a transaction of its own: when its answer
-- is lost, reading the record says whether this attempt stored it (and so publishes the
-- checkout), where a verified commit cost one more round trip on every checkout (issue 33).
-- Null for records stored before this column, by the admin command or by the demo data.
ALTER TABLE checkouts ADD COLUMN attempt uuid;
