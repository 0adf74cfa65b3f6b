//! Random keys for Zobrist hashing of POLD.R positions, the same on every
//! run and machine (a fixed seed).

use std::sync::OnceLock;

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng, SeedableRng};

use super::types::{CELLS, MAX_BRICKS, MAX_PLAYERS, MAX_SIZE};

const MAX_RESERVE: usize = MAX_BRICKS as usize + CELLS;

/// What can stand on a cell: the pawn, a marker or a brick of a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Piece {
    /// The pawn, which every player moves.
    Pawn,
    /// The marker of the seat of this index.
    Marker(usize),
    /// A brick of the seat of this index.
    Brick(usize),
}

impl Piece {
    fn index(self) -> usize {
        match self {
            Piece::Pawn => 0,
            Piece::Marker(seat) => 1 + seat,
            Piece::Brick(seat) => 1 + MAX_PLAYERS + seat,
        }
    }
}

const PIECES: usize = 1 + 2 * MAX_PLAYERS;
/// Orders of the players' last reserve changes, coded in base `MAX_PLAYERS`.
pub const CHANGE_ORDERS: usize = MAX_PLAYERS.pow(MAX_PLAYERS as u32);

pub struct ZobristKeys {
    pieces: [[u64; CELLS]; PIECES],
    /// Clearing can take a reserve past the starting maximum: up to every cell.
    reserves: [[u64; MAX_RESERVE + 1]; MAX_PLAYERS],
    pub mover: [u64; MAX_PLAYERS],
    pub clearing: u64,
    pub change_order: [u64; CHANGE_ORDERS],
    pub size: [u64; MAX_SIZE as usize + 1],
    pub players: [u64; MAX_PLAYERS + 1],
}

impl ZobristKeys {
    const SEED: u64 = 0x504f_4c44_2e52_2121; // "POLD.R!!"

    pub fn get() -> &'static ZobristKeys {
        static KEYS: OnceLock<ZobristKeys> = OnceLock::new();
        KEYS.get_or_init(ZobristKeys::new)
    }

    fn new() -> ZobristKeys {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(Self::SEED);
        let mut keys = ZobristKeys {
            pieces: [[0; CELLS]; PIECES],
            reserves: [[0; MAX_RESERVE + 1]; MAX_PLAYERS],
            mover: [0; MAX_PLAYERS],
            clearing: 0,
            change_order: [0; CHANGE_ORDERS],
            size: [0; MAX_SIZE as usize + 1],
            players: [0; MAX_PLAYERS + 1],
        };
        let all = keys.pieces.iter_mut().flatten().chain(keys.reserves.iter_mut().flatten());
        for key in all
            .chain(&mut keys.mover)
            .chain([&mut keys.clearing])
            .chain(&mut keys.change_order)
            .chain(&mut keys.size)
            .chain(&mut keys.players)
        {
            *key = rng.next_u64();
        }
        keys
    }

    #[inline]
    pub fn piece(&self, piece: Piece, cell: usize) -> u64 {
        self.pieces[piece.index()][cell]
    }

    #[inline]
    pub fn reserve(&self, seat: usize, bricks: u8) -> u64 {
        self.reserves[seat][bricks as usize]
    }
}
