//! The SVG chart of `tegula simulate --compare --chart`: the distribution of the seats' final
//! scores under each variant, one line per variant.

/// Colours of the chart's lines, by variant.
const COLOURS: [&str; 6] = [
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b",
];

/// An SVG chart: per variant, the distribution of the seats' final scores (share of seat results
/// per 5-point bin) as a line. `scores[v][g]` are the seats' scores of game `g` of variant `v`.
pub fn score_distributions(ids: &[String], scores: &[Vec<&[u32]>]) -> String {
    const BIN: u32 = 5;
    let top = scores
        .iter()
        .flatten()
        .flat_map(|g| g.iter().copied())
        .max()
        .unwrap_or(0);
    let bins = (top / BIN + 1) as usize;
    let hists: Vec<Vec<f64>> = scores
        .iter()
        .map(|games| {
            let mut h = vec![0.0; bins];
            let n = games.iter().map(|g| g.len()).sum::<usize>().max(1) as f64;
            for s in games.iter().flat_map(|g| g.iter()) {
                h[(s / BIN) as usize] += 1.0 / n;
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
    let (w, h, left, bottom) = (640.0, 360.0, 50.0, 40.0);
    let x = |b: usize| left + (w - left - 20.0) * (b as f64 + 0.5) / bins as f64;
    let y = |v: f64| (h - bottom) - (h - bottom - 20.0) * v / ymax;
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\" font-size=\"11\">\n\
         <rect width=\"{w}\" height=\"{h}\" fill=\"white\"/>\n\
         <line x1=\"{left}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"black\"/>\n\
         <text x=\"{}\" y=\"{}\" text-anchor=\"middle\">final score of a seat (bins of {BIN})</text>\n\
         <text x=\"12\" y=\"{}\" transform=\"rotate(-90 12 {})\" text-anchor=\"middle\">share of seat results</text>\n",
        h - bottom, w - 20.0, h - bottom, (w + left) / 2.0, h - 8.0, h / 2.0, h / 2.0
    );
    for b in (0..bins).step_by((bins / 10).max(1)) {
        svg.push_str(&format!(
            "<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
            x(b),
            h - bottom + 14.0,
            b as u32 * BIN
        ));
    }
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
            w - 25.0,
            20.0 + 14.0 * v as f64,
            escape(&ids[v])
        ));
    }
    svg.push_str("</svg>\n");
    svg
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
