//! `Batch.planes`: the observation planes and global features of many games, filled into two
//! NumPy arrays with the GIL released (each game's rows are disjoint slices).

use numpy::{PyArray2, PyArray4, PyArrayMethods};
use pyo3::prelude::*;
use tegula_engine::{Game, Phase};

use crate::batch::BatchView;
use crate::observe::{self, View};
use crate::planes::{fill, Entry, Layout};
use crate::planes_py::Dtype;

/// The planes and features of the games `picked` of `b` (rows in that order).
pub(crate) fn planes<'py>(
    py: Python<'py>,
    b: BatchView<'_>,
    picked: &[usize],
    dtype: Dtype,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyArray2<f32>>)> {
    let first = b.games[0];
    let layout = Layout::new(first.rules().ruleset(), first.players());
    let s = 2 * usize::from(b.radius) + 1;
    let shape = [picked.len(), layout.channels, s, s];
    let flen = observe::features_len(first);
    let feats = PyArray2::<f32>::zeros(py, [picked.len(), flen], false);
    let games: Vec<&Game> = picked.iter().map(|&i| b.games[i]).collect();
    let hidden = !b.loaded.codec.perfect_information();
    let job = Job {
        games: &games,
        radius: b.radius,
        layout: &layout,
        hidden,
    };
    let planes = match dtype {
        Dtype::F32 => {
            let a = PyArray4::<f32>::zeros(py, shape, false);
            job.run(
                py,
                a.readwrite().as_slice_mut()?,
                feats.readwrite().as_slice_mut()?,
            );
            a.into_any()
        }
        Dtype::U8 => {
            let a = PyArray4::<u8>::zeros(py, shape, false);
            job.run(
                py,
                a.readwrite().as_slice_mut()?,
                feats.readwrite().as_slice_mut()?,
            );
            a.into_any()
        }
    };
    Ok((planes, feats))
}

/// The games to fill and how.
struct Job<'a> {
    games: &'a [&'a Game],
    radius: u16,
    layout: &'a Layout,
    hidden: bool,
}

impl Job<'_> {
    /// Fill each game's rows (zeros for a finished game), the GIL released.
    fn run<T: Entry + Send>(&self, py: Python<'_>, planes: &mut [T], feats: &mut [f32]) {
        let n = self.games.len().max(1);
        let (per_p, per_f) = (planes.len() / n, feats.len() / n);
        py.detach(|| {
            let rows = planes
                .chunks_mut(per_p.max(1))
                .zip(feats.chunks_mut(per_f.max(1)));
            for (game, (p, f)) in self.games.iter().zip(rows) {
                if game.phase() == Phase::Over {
                    continue;
                }
                let view = View(Some(game.current_player()).filter(|_| self.hidden));
                fill(game, self.radius, view, self.layout, p);
                f.copy_from_slice(&observe::global_features(game, view));
            }
        });
    }
}
