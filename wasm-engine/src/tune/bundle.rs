//! The files a tune produces.
