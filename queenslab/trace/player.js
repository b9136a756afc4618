"use strict";
const data = JSON.parse(document.getElementById("trace-data").textContent);
const n = data.n, steps = data.steps, tree = data.tree;
const board = document.getElementById("board"), bctx = board.getContext("2d");
const treeCanvas = document.getElementById("tree"), tctx = treeCanvas.getContext("2d");
const status = document.getElementById("status");
const cell = board.width / n;
let cols, done, timer = null, rejected = null, conflicts = null, free = null;

function reset() {
  cols = new Array(n).fill(-1); done = 0; rejected = null; conflicts = null; free = null;
  if (tree) { treeCanvas.hidden = false; tctx.clearRect(0, 0, treeCanvas.width, treeCanvas.height); drawNode(0, "#333"); }
  draw();
}
function apply(s) {
  rejected = null; free = null;
  if (s.kind === "place") { cols[s.row] = s.col; if (s.free) free = [s.row, s.free]; }
  else if (s.kind === "remove") cols[s.row] = -1;
  else if (s.kind === "reject") rejected = [s.row, s.col];
  else if (s.kind === "move") s.rows.forEach((r, i) => { cols[r] = s.cols[i]; });
  else if (s.kind === "restart" || s.kind === "solution") cols = s.cols.slice();
  if (s.conflicts !== undefined) conflicts = s.conflicts;
  if (tree) {
    const node = tree.node_of_step[s.step];
    if (s.kind === "place") drawNode(node, "#1565c0");
    else if (s.kind === "remove") drawNode(node, "#aaa");
    else if (s.kind === "solution") drawNode(node, "#2e7d32");
  }
}
function draw() {
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) {
    bctx.fillStyle = (r + c) % 2 ? "#b58863" : "#f0d9b5";
    bctx.fillRect(c * cell, r * cell, cell, cell);
  }
  if (free) { bctx.fillStyle = "rgba(46,125,50,.45)"; free[1].forEach((c) => bctx.fillRect(c * cell, free[0] * cell, cell, cell)); }
  if (rejected) { bctx.fillStyle = "rgba(211,47,47,.7)"; bctx.fillRect(rejected[1] * cell, rejected[0] * cell, cell, cell); }
  const attacked = new Set(data.attacked && done ? data.attacked[done - 1] : []);
  cols.forEach((c, r) => { if (c >= 0) { bctx.fillStyle = attacked.has(r) ? "#d32f2f" : "#1b1b1b"; bctx.beginPath(); bctx.arc((c + .5) * cell, (r + .5) * cell, cell * .35, 0, 2 * Math.PI); bctx.fill(); } });
  board.dataset.cols = cols.join(",");
  const last = done ? steps[done - 1] : null;
  status.textContent = `step ${done} of ${steps.length}` + (last ? `: ${last.kind}` + (last.status ? ` (${last.status})` : "") : "") + (conflicts !== null ? `, conflicts ${conflicts}` : "");
}
function nodeXY(node) {
  const pad = 8, w = treeCanvas.width - 2 * pad, h = treeCanvas.height - 2 * pad;
  const span = Math.max(tree.leaves[0] - 1, 1);
  return [pad + w * tree.x[node] / span, pad + h * tree.depth[node] / n];
}
function drawNode(node, color) {
  const [x, y] = nodeXY(node);
  if (tree.parent[node] >= 0) {
    const [px, py] = nodeXY(tree.parent[node]);
    tctx.strokeStyle = color; tctx.lineWidth = 1; tctx.beginPath(); tctx.moveTo(px, py); tctx.lineTo(x, y); tctx.stroke();
  }
  tctx.fillStyle = color; tctx.beginPath(); tctx.arc(x, y, 2.5, 0, 2 * Math.PI); tctx.fill();
}
function forward(k) {
  for (let i = 0; i < k && done < steps.length; i++) apply(steps[done++]);
  draw();
  if (done >= steps.length) pause();
}
function rate() { return Math.round(Math.pow(10, document.getElementById("speed").value / 25)); }
function play() { pause(); timer = setInterval(() => forward(Math.max(1, Math.round(rate() / 20))), Math.max(50, 1000 / rate())); }
function pause() { if (timer !== null) { clearInterval(timer); timer = null; } }
document.getElementById("play").onclick = play;
document.getElementById("pause").onclick = pause;
document.getElementById("step").onclick = () => { pause(); forward(1); };
document.getElementById("reset").onclick = () => { pause(); reset(); };
document.getElementById("back").onclick = () => { pause(); const target = done - 1; reset(); if (target > 0) forward(target); };
const speed = document.getElementById("speed");
speed.oninput = () => { document.getElementById("rate").textContent = `${rate()} steps/s`; if (timer !== null) play(); };
speed.oninput();
reset();
