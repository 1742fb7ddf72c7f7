//! Pictures of tegula tiles for authors: an SVG of one tile (a mega tile as its whole
//! footprint) with every feature in its own colour and labelled, a terminal (ASCII) picture, and
//! a contact sheet of a whole set as one SVG.
//!
//! [`html::replay_html`] writes a self-contained replay viewer of a game.
//!
//! [`board::BoardView`] is a game position ready to draw (`svg::board`, `ascii::board_ascii`).
//!
//! [`view::TileView`] turns a raw tile into drawable geometry (rotated, with its features);
//! [`svg`] and [`ascii`] draw it; [`files`] finds tiles by id in a folder of tile sets.

pub mod ascii;
pub mod board;
pub mod deltas;
pub mod files;
pub mod html;
pub mod svg;
pub mod view;
pub mod words;

pub use view::TileView;
