//! Correspondence play: what makes a game by post work over days and weeks. Time-control
//! arithmetic (`clocks`), deadlines with their time-outs, aborts and reminders (`deadlines`),
//! vacation (`vacations`), the games waiting for you in the loop's order (`my_games`), and moves
//! played by answering the "your turn" email (`by_mail`).

pub mod by_mail;
pub mod clocks;
pub mod deadlines;
pub mod my_games;
pub mod vacations;
