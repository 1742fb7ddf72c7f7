//! The SVG chart of `tegula simulate --compare --chart`: the distribution of the seats' final
//! scores under each variant, one line per variant.

/// Colours of the chart's lines, by variant.
const COLOURS: [&str; 6] = [
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b",
];

/// Width, height and the left and bottom margins of the chart (SVG units).
const W: f64 = 640.0;
const H: f64 = 360.0;
const LEFT: f64 = 64.0;
const BOTTOM: f64 = 40.0;
/// Score points per bin of the distribution.
const BIN: i64 = 5;

/// An SVG chart: per variant, the distribution of the seats' final scores (share of seat results
/// per 5-point bin) as a line, with both axes' values. `scores[v][g]` are the seats' scores of
/// game `g` of variant `v`; `caption` (who played, how many games) is written at the top.
pub fn score_distributions(ids: &[String], scores: &[Vec<&[i64]>], caption: &str) -> String {
    let all = || scores.iter().flatten().flat_map(|g| g.iter().copied());
    let top = all().max().unwrap_or(0).max(0);
    // Bins start at 0, or at the bin of the lowest score when a seat ended below 0.
    let low = all().min().unwrap_or(0).min(0).div_euclid(BIN) * BIN;
    let bins = ((top - low) / BIN + 1) as usize;
    let hists: Vec<Vec<f64>> = scores
        .iter()
        .map(|games| {
            let mut h = vec![0.0; bins];
            let n = games.iter().map(|g| g.len()).sum::<usize>().max(1) as f64;
            for s in games.iter().flat_map(|g| g.iter()) {
                h[((s - low) / BIN) as usize] += 1.0 / n;
            }
            h
        })
        .collect();
    let ymax = hists
        .iter()
        .flatten()
        .copied()
        .fold(0.0f64, f64::max)
        .max(1e-9);
    let x = |b: usize| LEFT + (W - LEFT - 20.0) * (b as f64 + 0.5) / bins as f64;
    let y = |v: f64| (H - BOTTOM) - (H - BOTTOM - 30.0) * v / ymax;
    let mut svg = axes((bins, low), ymax, &x, &y, caption);
    for (v, hist) in hists.iter().enumerate() {
        let colour = COLOURS[v % COLOURS.len()];
        let points: Vec<String> = hist
            .iter()
            .enumerate()
            .map(|(b, &p)| format!("{:.1},{:.1}", x(b), y(p)))
            .collect();
        svg.push_str(&format!(
            "<polyline fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\" points=\"{}\"/>\n\
             <text x=\"{}\" y=\"{}\" fill=\"{colour}\" text-anchor=\"end\">{}</text>\n",
            points.join(" "),
            W - 25.0,
            30.0 + 14.0 * v as f64,
            escape(&ids[v])
        ));
    }
    svg.push_str("</svg>\n");
    svg
}

/// The frame: background, caption, both axes with their names, tick marks and values (scores
/// under the x axis, shares of seat results in per cent beside the y axis).
fn axes(
    (bins, low): (usize, i64),
    ymax: f64,
    x: &dyn Fn(usize) -> f64,
    y: &dyn Fn(f64) -> f64,
    caption: &str,
) -> String {
    let base = H - BOTTOM;
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {W} {H}\" font-family=\"sans-serif\" font-size=\"11\">\n\
         <rect width=\"{W}\" height=\"{H}\" fill=\"white\"/>\n\
         <text x=\"{LEFT}\" y=\"14\">{}</text>\n\
         <line x1=\"{LEFT}\" y1=\"{base}\" x2=\"{}\" y2=\"{base}\" stroke=\"black\"/>\n\
         <line x1=\"{LEFT}\" y1=\"{base}\" x2=\"{LEFT}\" y2=\"24\" stroke=\"black\"/>\n\
         <text x=\"{}\" y=\"{}\" text-anchor=\"middle\">final score of a seat (bins of {BIN})</text>\n\
         <text x=\"12\" y=\"{}\" transform=\"rotate(-90 12 {})\" text-anchor=\"middle\">share of seat results</text>\n",
        escape(caption), W - 20.0, (W + LEFT) / 2.0, H - 8.0, H / 2.0, H / 2.0
    );
    for b in (0..bins).step_by((bins / 10).max(1)) {
        svg.push_str(&format!(
            "<line x1=\"{0:.1}\" y1=\"{base}\" x2=\"{0:.1}\" y2=\"{1}\" stroke=\"black\"/>\n\
             <text x=\"{0:.1}\" y=\"{2}\" text-anchor=\"middle\">{3}</text>\n",
            x(b),
            base + 4.0,
            base + 16.0,
            low + b as i64 * BIN
        ));
    }
    // Five values from 0 to the highest share.
    for k in 0..=4 {
        let v = ymax * f64::from(k) / 4.0;
        svg.push_str(&format!(
            "<line x1=\"{0}\" y1=\"{1:.1}\" x2=\"{LEFT}\" y2=\"{1:.1}\" stroke=\"black\"/>\n\
             <text x=\"{2}\" y=\"{3:.1}\" text-anchor=\"end\">{4:.1} %</text>\n",
            LEFT - 4.0,
            y(v),
            LEFT - 6.0,
            y(v) + 4.0,
            v * 100.0
        ));
    }
    svg
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
