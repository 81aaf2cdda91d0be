//! Mail: the game's outbox (every message pbem sends is first an `.eml` file there). Reading mail and
//! sending it come with their own files here.

pub mod outbox;
