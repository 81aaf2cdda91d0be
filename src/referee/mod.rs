//! The referee's acts that write a turn's files: resolving a turn (state, log, reports, mail and the
//! record last, `turn`), closing its orders (pbem-dice/v2, `close`), moving a deadline, rolling back
//! or re-keying a turn (`extend`, `rollback`, `rekey`, with what they share in `deadline`, and
//! `underway`: none of them killed midway and left unfinished), ending the game and reopening it (`end`, `reopen`). This
//! layer sits above the engine, which adjudicates and reads a turn's inputs, and above the outputs
//! it renders (`report`, `mail`); the commands call it.
pub mod close;
pub mod deadline;
pub mod end;
pub mod extend;
pub mod rekey;
pub mod reopen;
pub mod rollback;
pub mod turn;
pub mod underway;
