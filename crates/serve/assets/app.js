// The tegula play page. It knows no tile, figure or rule by name: it draws the SVG the server
// sends (tile drawings by id, the board), offers the legal actions the server lists, and shows
// the events in the server's words. The root element carries data-phase (setup, placing,
// figure, choice, over), data-scores (JSON list), data-busy (1 while waiting for the server or
// an agent) and data-human (1 when a person's decision is due), for tests and scripts.

const $ = (id) => document.getElementById(id);
const root = $("app");
const SVG = "http://www.w3.org/2000/svg";

/** Fetch JSON; a refused request throws its message. */
async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  };
  const r = await fetch(path, init);
  const text = await r.text();
  let v = null;
  try { v = JSON.parse(text); } catch (_) { v = { error: text }; }
  if (!r.ok) throw new Error(v && v.error ? v.error : `${r.status}`);
  return v;
}

function say(text) { $("message").textContent = text || ""; }
function show(section) {
  for (const s of ["setup", "play", "author"]) $(s).hidden = s !== section;
}
function el(tag, attrs = {}, text) {
  const e = tag.startsWith("svg:") ? document.createElementNS(SVG, tag.slice(4)) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------- setup

const SEAT_KINDS = ["human", "random", "greedy", "mcts:200", "mcts:1000"];

async function setup(params) {
  show("setup");
  root.dataset.phase = "setup";
  const { variants, watch } = await api("/api/variants");
  $("author-link").hidden = !watch;
  const sel = $("variant");
  sel.replaceChildren(...variants.map((v) => el("option", { value: v.key }, `${v.key} — ${v.file}`)));
  if (params.get("variant")) sel.value = params.get("variant");
  else if (variants.some((v) => v.key === "base")) sel.value = "base";
  sel.onchange = () => chooseVariant();
  $("players").onchange = () => drawSeats();
  $("explain-button").onclick = () => explain();
  $("setup-form").onsubmit = (e) => { e.preventDefault(); start(); };
  $("load-form").onsubmit = (e) => { e.preventDefault(); loadLog(); };
  await chooseVariant();
  root.dataset.busy = "0";
}

let variantInfo = null;
async function chooseVariant() {
  say("");
  $("explanation").hidden = true;
  try {
    variantInfo = await api(`/api/variant?key=${encodeURIComponent($("variant").value)}`);
  } catch (e) { say(e.message); variantInfo = null; return; }
  const p = $("players");
  const opts = [];
  for (let n = variantInfo.min_players; n <= variantInfo.max_players; n++) opts.push(el("option", { value: n }, n));
  p.replaceChildren(...opts);
  p.value = Math.max(variantInfo.min_players, Math.min(2, variantInfo.max_players));
  drawSeats();
}

function drawSeats() {
  const n = Number($("players").value);
  const box = $("seats");
  const old = [...box.querySelectorAll("select")].map((s) => s.value);
  const rows = [el("legend", {}, "Seats")];
  for (let i = 0; i < n; i++) {
    const s = el("select", { "data-seat": i });
    s.replaceChildren(...SEAT_KINDS.map((k) => el("option", { value: k }, k)));
    s.value = old[i] || (i === 0 ? "human" : "random");
    const l = el("label", {}, `seat ${i} `);
    l.append(s);
    rows.push(l);
  }
  box.replaceChildren(...rows);
}

async function explain() {
  const pre = $("explanation");
  if (!variantInfo) return;
  const e = variantInfo.explain;
  if (!e) { pre.textContent = "(no explanation: the variant has errors)"; pre.hidden = false; return; }
  const lines = [`${e.id} — ${e.name}`, `read from: ${e.chain.join(" → ")}`];
  for (const r of e.rules) {
    const where = r.origin ? `${r.origin.file}:${r.origin.line}` : "default (rulebook)";
    lines.push(`  ${r.key}  ${r.text}${r.rule ? ` (${r.rule})` : ""}  [${where}]`);
  }
  pre.textContent = lines.join("\n");
  pre.hidden = !pre.hidden;
}

async function start() {
  const seats = [...$("seats").querySelectorAll("select")].map((s) => s.value);
  const q = new URLSearchParams({ variant: $("variant").value, seats: seats.join(","), seed: $("seed").value || "0" });
  location.href = `/play?${q}`;
}

async function loadLog() {
  const f = $("log-file").files[0];
  if (!f) { say("choose a log file first"); return; }
  const body = { log: await f.text() };
  if ($("load-turn").value !== "") body.turn = Number($("load-turn").value);
  if ($("load-seats").value.trim()) body.seats = $("load-seats").value.split(",").map((s) => s.trim());
  try {
    const { id } = await api("/api/games/load", body);
    history.pushState(null, "", `/play?game=${id}`);
    await play(id, new URLSearchParams());
  } catch (e) { say(e.message); }
}

// ---------------------------------------------------------------- play

const game = {
  id: null, state: null, shown: 0, tile: null, rotation: null, view: null, fitted: true,
  speed: 600, turnShown: -1,
};

async function play(id, params) {
  show("play");
  game.id = id;
  root.dataset.game = id;
  if (params.has("speed")) $("speed").value = params.get("speed");
  else if (params.get("autoplay") === "1") $("speed").value = "0";
  game.speed = Number($("speed").value);
  $("speed").onchange = () => { game.speed = Number($("speed").value); };
  $("save-log").href = `/api/games/${id}/log`;
  $("replay-link").href = `/api/games/${id}/replay`;
  $("undo").onclick = () => act(async () => {
    await api(`/api/games/${id}/undo`, {});
    // The events after the decision taken back are gone: show the list afresh.
    $("events").replaceChildren();
    game.shown = 0;
    game.turnShown = -1;
  });
  $("export").onclick = () => exportScenario();
  setupPanZoom();
  const defs = await (await fetch(`/api/games/${id}/defs`)).text();
  $("defs").innerHTML = defs;
  await refresh();
}

/** Run a request that changes the game, then redraw (a refused move is said, not thrown).
 * Only while the page waits for a person: one request at a time, one agent loop. */
async function act(request) {
  if (root.dataset.busy === "1") return;
  root.dataset.busy = "1";
  say("");
  try { await request(); } catch (e) { say(e.message); }
  await refresh();
}

async function refresh() {
  root.dataset.busy = "1";
  const s = await api(`/api/games/${game.id}?since=${game.shown}`);
  game.state = s;
  draw(s);
  if (s.phase !== "over" && !s.human) {
    await sleep(game.speed);
    try { await api(`/api/games/${game.id}/step`, {}); } catch (e) { say(e.message); return; }
    return refresh();
  }
  root.dataset.busy = "0";
}

function draw(s) {
  root.dataset.phase = s.phase;
  root.dataset.scores = JSON.stringify(s.scores);
  root.dataset.human = s.human ? "1" : "0";
  root.dataset.enginePhase = s.engine_phase;
  root.dataset.turn = s.turn;
  $("board-body").innerHTML = s.board.svg;
  if (game.fitted || !game.view) fit(s.board);
  drawScores(s);
  drawEvents(s);
  $("undo").disabled = !(s.can_undo && (s.human || s.phase === "over"));
  const who = s.seats[s.current];
  $("status").textContent = s.phase === "over"
    ? `Game over — ${s.winners.map((w) => s.seats[w].name).join(", ")} ${s.winners.length > 1 ? "tie" : "wins"}`
    : `Turn ${s.turn}, ${s.remaining} tiles left — ${who ? who.name : ""} to ${s.phase === "placing" ? "place a tile" : s.phase === "figure" ? "place a figure or not" : "choose"}`;
  drawActions(s);
}

function drawScores(s) {
  const res = Object.keys(s.resources || {});
  const head = el("tr");
  for (const h of ["", "seat", "score", ...res]) head.append(el("th", {}, h));
  $("scores").tHead.replaceChildren(head);
  const rows = s.seats.map((seat, p) => {
    const tr = el("tr", { class: p === s.current && s.phase !== "over" ? "current" : "" });
    const sw = el("span", { class: "swatch", style: `background:${seat.colour}` });
    const td = el("td"); td.append(sw); tr.append(td);
    tr.append(el("td", {}, seat.name));
    const kinds = Object.entries(s.points_by_kind[p] || {}).map(([k, v]) => `${k} ${v}`).join(", ");
    tr.append(el("td", { title: kinds }, s.scores[p]));
    for (const r of res) tr.append(el("td", {}, s.resources[r][p]));
    return tr;
  });
  $("scores").tBodies[0].replaceChildren(...rows);
}

function drawEvents(s) {
  const list = $("events");
  const fresh = [];
  for (const e of s.events) {
    if (e.turn !== game.turnShown) {
      game.turnShown = e.turn;
      fresh.push(el("li", { class: "turn" }, e.final ? "Final scoring" : `Turn ${e.turn}`));
    }
    const li = el("li", { class: e.final ? "final" : "" });
    li.append(document.createTextNode(e.text + " "));
    if (e.rule) {
      const b = el("button", { class: "rule", type: "button" }, e.rule);
      b.onclick = () => showRule(e.rule);
      li.append(b);
    }
    fresh.push(li);
  }
  game.shown = s.event_count;
  // The final scoring is revealed one line at a time, at the agents' speed.
  const finals = fresh.filter((li) => li.classList.contains("final"));
  if (game.speed > 0) for (const li of finals) li.hidden = true;
  list.append(...fresh);
  list.scrollTop = list.scrollHeight;
  if (game.speed > 0 && finals.length) {
    (async () => {
      for (const li of finals) { await sleep(game.speed / 2); li.hidden = false; list.scrollTop = list.scrollHeight; }
    })();
  }
}

async function showRule(id) {
  const box = $("rule-text");
  try {
    const r = await api(`/api/rule?id=${encodeURIComponent(id)}&game=${game.id}`);
    box.replaceChildren(el("b", {}, `${r.id} — ${r.title}`), el("p", {}, r.statement), el("small", {}, r.source));
  } catch (e) { box.textContent = e.message; }
  box.hidden = false;
}

// ---------------------------------------------------------------- actions

function send(action) {
  return act(() => api(`/api/games/${game.id}/act`, { action }));
}

function drawActions(s) {
  const targets = $("targets");
  targets.replaceChildren();
  $("preview").replaceChildren();
  $("tile-panel").replaceChildren();
  $("others").replaceChildren();
  if (!s.human) return;
  const places = s.actions.filter((a) => a.kind === "place");
  if (places.length) drawPlacements(s, places);
  const figures = s.actions.filter((a) => a.kind === "figure");
  drawFigures(figures);
  for (const a of s.actions.filter((a) => a.kind === "other")) {
    const b = el("button", { class: "other-action", type: "button" });
    if (a.tile !== undefined) {
      const pic = el("svg:svg", { viewBox: `0 0 ${s.board.cell} ${s.board.cell}` });
      pic.append(el("svg:use", { href: `#tt${a.tile}r0` }));
      b.append(pic);
    }
    b.append(document.createTextNode(" " + a.words));
    b.onclick = () => send(a.action);
    $("others").append(b);
  }
}

function drawPlacements(s, places) {
  const types = s.tiles;
  if (!types.some((t) => t.tile === game.tile)) game.tile = types[0].tile;
  const fits = (t, r) => places.filter((a) => a.place.tile === t && a.place.rotation === r);
  if (!fits(game.tile, game.rotation).length) {
    game.rotation = [0, 1, 2, 3].find((r) => fits(game.tile, r).length);
  }
  const C = s.board.cell;
  for (const t of types) {
    const row = el("div", { class: "tile-row" });
    row.append(el("span", {}, t.name));
    for (const rot of t.rotations) {
      const b = el("button", { class: "rotation", type: "button", title: `turned ${rot.rotation * 90}°`, "data-tile": t.tile, "data-rotation": rot.rotation });
      if (t.tile === game.tile && rot.rotation === game.rotation) b.classList.add("selected");
      b.disabled = !fits(t.tile, rot.rotation).length;
      const pic = el("svg:svg", { viewBox: `0 0 ${rot.size[0] * C} ${rot.size[1] * C}` });
      pic.append(el("svg:use", { href: `#tt${t.tile}r${rot.rotation}` }));
      b.append(pic);
      b.onclick = () => { game.tile = t.tile; game.rotation = rot.rotation; drawActions(s); };
      row.append(b);
    }
    $("tile-panel").append(row);
  }
  const type = types.find((t) => t.tile === game.tile);
  const selected = new Set();
  for (const a of fits(game.tile, game.rotation)) {
    selected.add(`${a.place.x},${a.place.y}`);
    target(a, type, C, true);
  }
  // Cells where only another rotation fits: a click there turns the tile to fit.
  const other = new Map();
  for (const a of places.filter((a) => a.place.tile === game.tile)) {
    const k = `${a.place.x},${a.place.y}`;
    if (!selected.has(k) && !other.has(k)) other.set(k, a);
  }
  for (const a of other.values()) target(a, type, C, false);
}

/** A clickable anchor cell of a placement, previewing the tile on hover. */
function target(a, type, C, fits) {
  const p = a.place;
  const r = el("svg:rect", {
    class: fits ? "target fit" : "target other-rotation",
    x: p.x * C + 4, y: p.y * C + 4, width: C - 8, height: C - 8, rx: 8,
    "data-x": p.x, "data-y": p.y, "data-rotation": p.rotation,
  });
  r.append(el("svg:title", {}, fits ? a.words : "another rotation fits here"));
  const rot = type.rotations.find((q) => q.rotation === p.rotation);
  r.onmouseenter = () => {
    const u = el("svg:use", { href: `#tt${p.tile}r${p.rotation}`, x: (p.x - rot.anchor[0]) * C, y: (p.y - rot.anchor[1]) * C });
    $("preview").replaceChildren(u);
  };
  r.onmouseleave = () => $("preview").replaceChildren();
  r.onclick = () => {
    if (fits) { send(a.action); return; }
    game.rotation = p.rotation;
    drawActions(game.state);
  };
  $("targets").append(r);
}

function drawFigures(figures) {
  const seen = new Map();
  for (const a of figures) {
    if (!a.spot) continue;
    const k = `${a.spot[0]},${a.spot[1]}`;
    const n = seen.get(k) || 0;
    seen.set(k, n + 1);
    const g = el("svg:g", { class: "figure-option", transform: `translate(${a.spot[0] + n * 30},${a.spot[1]})` });
    g.append(el("svg:title", {}, a.words));
    g.append(el("svg:circle", { r: 14 }));
    g.append(el("svg:text", { "text-anchor": "middle", y: 6 }, a.symbol));
    g.onclick = () => send(a.action);
    $("targets").append(g);
  }
}

async function exportScenario() {
  try {
    const x = await api(`/api/games/${game.id}/scenario`);
    download(x.log_name, x.log);
    download(x.scenario_name, x.scenario);
    say(`saved ${x.scenario_name} and ${x.log_name}: put them in the same folder`);
  } catch (e) { say(e.message); }
}

function download(name, text) {
  const a = el("a", { download: name, href: URL.createObjectURL(new Blob([text], { type: "text/plain" })) });
  document.body.append(a);
  a.click();
  a.remove();
}

// ---------------------------------------------------------------- pan and zoom

function fit(b) {
  const C = b.cell;
  const [x0, y0, x1, y1] = b.bounds;
  // At least five cells each way, so that a small board is not drawn huge.
  const w = Math.max(5, x1 - x0 + 1), h = Math.max(5, y1 - y0 + 1);
  const cx = (x0 + x1 + 1) / 2, cy = (y0 + y1 + 1) / 2;
  game.view = [(cx - w / 2) * C, (cy - h / 2) * C, w * C, h * C];
  game.fitted = true;
  applyView();
}
function applyView() { $("board").setAttribute("viewBox", game.view.join(" ")); }

function zoom(factor, cx, cy) {
  const [x, y, w, h] = game.view;
  const px = cx === undefined ? x + w / 2 : cx;
  const py = cy === undefined ? y + h / 2 : cy;
  game.view = [px - (px - x) * factor, py - (py - y) * factor, w * factor, h * factor];
  game.fitted = false;
  applyView();
}

function setupPanZoom() {
  const svg = $("board");
  $("zoom-in").onclick = () => zoom(0.8);
  $("zoom-out").onclick = () => zoom(1.25);
  $("zoom-fit").onclick = () => game.state && fit(game.state.board);
  const toBoard = (e) => {
    const p = svg.createSVGPoint();
    p.x = e.clientX; p.y = e.clientY;
    return p.matrixTransform(svg.getScreenCTM().inverse());
  };
  svg.addEventListener("wheel", (e) => {
    e.preventDefault();
    const p = toBoard(e);
    zoom(e.deltaY > 0 ? 1.15 : 1 / 1.15, p.x, p.y);
  }, { passive: false });
  let drag = null;
  svg.addEventListener("pointerdown", (e) => {
    if (e.target.closest(".target, .figure-option")) return;
    drag = { p: toBoard(e), moved: false };
  });
  svg.addEventListener("pointermove", (e) => {
    if (!drag) return;
    const p = toBoard(e);
    const dx = drag.p.x - p.x, dy = drag.p.y - p.y;
    if (Math.abs(dx) + Math.abs(dy) < 2 && !drag.moved) return;
    drag.moved = true;
    game.view[0] += dx; game.view[1] += dy;
    game.fitted = false;
    applyView();
  });
  window.addEventListener("pointerup", () => { drag = null; });
  document.addEventListener("keydown", (e) => {
    if (e.key === "r" && game.state && game.state.phase !== "over") {
      const t = game.state.tiles.find((t) => t.tile === game.tile);
      if (!t) return;
      const ok = (r) => game.state.actions.some((a) => a.kind === "place" && a.place.tile === game.tile && a.place.rotation === r);
      for (let i = 1; i <= 4; i++) { const r = (game.rotation + i) % 4; if (ok(r)) { game.rotation = r; break; } }
      drawActions(game.state);
    }
  });
}

// ---------------------------------------------------------------- author mode

async function author() {
  show("author");
  root.dataset.phase = "author";
  let generation = -1;
  for (;;) {
    try {
      const w = await api("/api/watch");
      if (w.generation !== generation) {
        generation = w.generation;
        drawAuthor(w);
        const { variants } = await api("/api/variants");
        drawAuthorVariants(variants);
      }
      root.dataset.busy = "0";
    } catch (e) { say(e.message); }
    await sleep(400);
  }
}

function drawAuthor(w) {
  const r = w.report;
  const diags = r.diagnostics || [];
  root.dataset.generation = w.generation;
  root.dataset.diagnostics = diags.length;
  $("author-status").textContent = `${r.dir}: ${r.files} file(s), ${diags.length} diagnostic(s) — check ${w.generation} at ${new Date().toLocaleTimeString()}`;
  $("diagnostics").replaceChildren(...diags.map((d) => el("li", { class: d.severity },
    `${d.file}:${d.line}:${d.column}: ${d.severity}[${d.code}]: ${d.message}${d.rule ? ` (${d.rule})` : ""}`)));
  $("sheet").innerHTML = w.sheet;
}

function drawAuthorVariants(variants) {
  $("author-variants").replaceChildren(...variants.filter((v) => v.watched).map((v) => {
    const key = encodeURIComponent(v.key);
    const play = el("a", { href: `/play?variant=${key}&seats=human,random&seed=1`, class: "play-variant" }, `Play ${v.key}`);
    const more = el("a", { href: `/?variant=${key}` }, "set up another game of it");
    const p = el("p"); p.append(play, " (you against random) or ", more); return p;
  }));
}

// ---------------------------------------------------------------- start

async function main() {
  const params = new URLSearchParams(location.search);
  try {
    if (location.pathname === "/author") return await author();
    if (location.pathname === "/play" && params.get("game")) return await play(params.get("game"), params);
    if (location.pathname === "/play" && params.get("variant")) {
      const seats = (params.get("seats") || "human,random").split(",");
      const body = { variant: params.get("variant"), seats, seed: params.get("seed") || "0" };
      const { id } = await api("/api/games", body);
      // A reload goes on with this game instead of setting up another.
      const keep = new URLSearchParams({ game: id });
      for (const k of ["speed", "autoplay"]) if (params.has(k)) keep.set(k, params.get(k));
      history.replaceState(null, "", `/play?${keep}`);
      return await play(id, params);
    }
    await setup(params);
  } catch (e) {
    say(e.message);
    root.dataset.busy = "0";
    root.dataset.phase = "error";
  }
}

main();
