// The page: takes a photo, hands it to the reader in worker.js (the
// pipeline compiled to WebAssembly), shows the answer or a hint drawn on
// the photo, and lets the person tap a cell to correct what was read.
//
// Test contract (tools rely on it): the file input is #photo; after a photo
// is processed, #result carries data-status (the `--json` status words),
// data-read and data-solution (the shape's text form, empty when none) and
// data-ms (milliseconds the page took to read, decide and solve). A photo
// with several grids gives each attribute as the grids' values in reading
// order, separated by spaces (the text forms hold none).

const $ = (id) => document.getElementById(id);

// The reader runs in a worker so that the page stays responsive while a
// photo is read (about a second on a phone).
const calls = new Map();
let nextCall = 1;
let worker = startWorker();

function startWorker() {
  const w = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
  w.onmessage = (event) => {
    const { id, ok, result, error, fatal } = event.data;
    const call = calls.get(id);
    if (!call) return;
    calls.delete(id);
    // A trap (memory exhausted by a huge photo, say) leaves the WebAssembly
    // instance unusable: the next request gets a fresh worker.
    if (fatal) restartWorker();
    if (ok) call.resolve(result); else call.reject(new Error(error));
  };
  return w;
}

function restartWorker() {
  worker.terminate();
  worker = startWorker();
  state.view = null;
}

// Asks the worker to do `op`; resolves with its result.
function ask(op, args = {}, transfer = []) {
  const id = nextCall++;
  return new Promise((resolve, reject) => {
    calls.set(id, { resolve, reject });
    worker.postMessage({ id, op, ...args }, transfer);
  });
}

const state = {
  view: null,          // the reader's view of the photo (session::View)
  name: 'photo',       // the photo's file name
  mode: localStorage.getItem('mode') === 'hint' ? 'hint' : 'answer',
  hints: null,         // the last hints (hint --json objects)
  selected: null,      // { grid, cell } while the picker is open
};

// Runs `work` with the busy line showing `text` and the controls disabled.
async function busy(text, work) {
  $('busy-text').textContent = text;
  $('busy').hidden = false;
  document.body.classList.add('working');
  try {
    return await work();
  } finally {
    $('busy').hidden = true;
    document.body.classList.remove('working');
  }
}

// body[data-ready] says the reader is loaded ("yes") or failed ("no").
const ready = busy('Loading the reader…', () => ask('warm_up')).then(
  () => { document.body.dataset.ready = 'yes'; },
  (e) => {
    document.body.dataset.ready = 'no';
    showMessage([`The reader could not start: ${e.message}`], 'error');
  },
);

for (const input of [$('photo'), $('file')]) {
  input.addEventListener('change', () => {
    const file = input.files && input.files[0];
    input.value = '';
    if (file) readPhoto(file);
  });
}

for (const radio of document.querySelectorAll('input[name=mode]')) {
  radio.checked = radio.value === state.mode;
  radio.addEventListener('change', () => {
    if (!radio.checked) return;
    setMode(radio.value);
  });
}

$('show-hint').addEventListener('click', () => setMode('hint'));
$('show-answer').addEventListener('click', () => setMode('answer'));
$('save').addEventListener('click', save);
$('stage').addEventListener('click', tap);
$('picker-close').addEventListener('click', closePicker);
$('picker').addEventListener('click', (event) => {
  const value = event.target.dataset && event.target.dataset.value;
  if (value !== undefined && state.selected) correct(Number(value));
});
document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape') closePicker();
});

if ('serviceWorker' in navigator) {
  // Offline after the first visit; the page works without it too.
  navigator.serviceWorker.register('sw.js').catch(() => {});
}

async function readPhoto(file) {
  await ready;
  closePicker();
  const result = $('result');
  for (const key of ['status', 'read', 'solution', 'ms']) delete result.dataset[key];
  state.name = file.name || 'photo';
  state.hints = null;
  try {
    await busy('Reading the photo…', async () => {
      const bytes = await file.arrayBuffer();
      const start = performance.now();
      const view = await ask('read', { name: state.name, bytes }, [bytes]);
      const ms = performance.now() - start;
      state.view = view;
      await draw();
      publish(view, ms);
    });
  } catch (e) {
    state.view = null;
    $('stage').hidden = true;
    $('actions').hidden = true;
    showMessage([`Something went wrong: ${e.message}`], 'error');
    publish({ status: 'error', grids: [] }, 0);
  }
}

// Puts the view's verdicts into #result's data attributes (the contract).
function publish(view, ms) {
  const result = $('result');
  const grids = view.grids || [];
  const words = (f) => grids.map((g) => f(g.report) || '').join(' ');
  result.dataset.read = grids.length ? words((r) => r.read) : '';
  result.dataset.solution = grids.length ? words((r) => r.solution) : '';
  result.dataset.ms = ms.toFixed(1);
  result.dataset.status = grids.length ? words((r) => r.status) : view.status;
}

async function setMode(mode) {
  state.mode = mode;
  localStorage.setItem('mode', mode);
  for (const radio of document.querySelectorAll('input[name=mode]')) {
    radio.checked = radio.value === mode;
  }
  if (state.view && state.view.grids.length) {
    await busy(mode === 'hint' ? 'Finding the next step…' : 'Drawing the answer…', draw);
  }
}

// Draws the photo with the answer or the hints, and says what became of
// each grid.
async function draw() {
  const view = state.view;
  if (!view.grids.length) {
    $('stage').hidden = true;
    $('actions').hidden = true;
    showMessage([view.error || 'No Sudoku grid found.'], 'bad');
    return;
  }
  let picture;
  if (state.mode === 'hint') {
    const hint = await ask('hint');
    state.hints = hint.reports;
    picture = hint.picture || (await ask('photo'));
  } else {
    state.hints = null;
    picture = await ask('answer');
  }
  const canvas = $('canvas');
  canvas.width = picture.width;
  canvas.height = picture.height;
  const pixels = new ImageData(new Uint8ClampedArray(picture.rgba), picture.width, picture.height);
  canvas.getContext('2d').putImageData(pixels, 0, 0);
  $('stage').hidden = false;
  $('actions').hidden = false;
  $('show-hint').hidden = state.mode === 'hint';
  $('show-answer').hidden = state.mode !== 'hint';
  $('save').hidden = state.mode === 'hint';
  drawMarks();
  describe();
}

// The words under the photo: each grid's verdict, or its hint.
function describe() {
  const view = state.view;
  const lines = [];
  let tone = 'good';
  view.grids.forEach((g, k) => {
    const r = g.report;
    const label = view.grids.length > 1 ? `Grid ${k + 1}: ` : '';
    const hint = state.hints && state.hints[k];
    if (r.status !== 'solved') tone = 'bad';
    if (hint && hint.hint) {
      lines.push(`${label}${hint.hint}`);
    } else if (hint && hint.error && r.status === 'solved') {
      lines.push(`${label}${hint.error}`);
    } else {
      lines.push(label + verdict(r, g));
    }
  });
  showMessage(lines, tone);
}

// A grid's verdict in words, with what the person can do about it.
function verdict(r, g) {
  switch (r.status) {
    case 'solved':
      return g.corrected.length ? 'Solved, with your corrections.' : 'Solved.';
    case 'unsure':
      return `${capital(r.error)}. Tap a shaded cell to say what it holds.`;
    case 'no_solution':
    case 'multiple_solutions':
      return `${capital(r.error || r.status.replace('_', ' '))}. If a cell was misread, tap it to correct it.`;
    case 'complete':
      return r.error ? `A filled-in grid that is not valid: ${r.error}.` : 'A filled-in grid, and it is valid.';
    case 'partial':
      return 'The grid is cut by the edge of the photo: take it again with the whole grid in view.';
    default:
      return capital(r.error || r.status);
  }
}

function capital(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : '';
}

function showMessage(lines, tone) {
  const result = $('result');
  result.className = tone;
  result.replaceChildren(...lines.map((line) => {
    const p = document.createElement('p');
    p.textContent = line;
    return p;
  }));
}

// The cells to check, the corrected cells and the selected one, over the
// photo (the image itself is the pipeline's drawing).
function drawMarks() {
  const svg = $('marks');
  const view = state.view;
  svg.setAttribute('viewBox', `0 0 ${view.width} ${view.height}`);
  const shapes = [];
  const polygon = (cell, cls) => {
    const points = cell.corners.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' ');
    shapes.push(`<polygon class="${cls}" points="${points}"/>`);
  };
  for (const g of view.grids) {
    const byIndex = new Map(g.cells.map((c) => [c.index, c]));
    for (const index of g.check) if (byIndex.has(index)) polygon(byIndex.get(index), 'check');
    for (const [index] of g.corrected) if (byIndex.has(index)) polygon(byIndex.get(index), 'corrected');
    if (state.selected && state.selected.grid === g.index && byIndex.has(state.selected.cell)) {
      polygon(byIndex.get(state.selected.cell), 'selected');
    }
  }
  svg.innerHTML = shapes.join('');
}

// A tap on the photo: the cell under it, if any, opens the picker.
function tap(event) {
  if (!state.view || document.body.classList.contains('working')) return;
  const canvas = $('canvas');
  const box = canvas.getBoundingClientRect();
  const x = (event.clientX - box.left) * state.view.width / box.width;
  const y = (event.clientY - box.top) * state.view.height / box.height;
  for (const g of state.view.grids) {
    for (const cell of g.cells) {
      if (inside(cell.corners, x, y)) {
        openPicker(g, cell);
        return;
      }
    }
  }
  closePicker();
}

// Whether (x, y) lies inside the convex polygon `corners` (either winding).
function inside(corners, x, y) {
  let sign = 0;
  for (let i = 0; i < corners.length; i++) {
    const [ax, ay] = corners[i];
    const [bx, by] = corners[(i + 1) % corners.length];
    const cross = (bx - ax) * (y - ay) - (by - ay) * (x - ax);
    if (cross !== 0) {
      if (sign && Math.sign(cross) !== sign) return false;
      sign = Math.sign(cross);
    }
  }
  return true;
}

function openPicker(grid, cell) {
  state.selected = { grid: grid.index, cell: cell.index };
  const read = cell.value ? grid.symbols[cell.value] : 'empty';
  const corrected = grid.corrected.some(([index]) => index === cell.index);
  const label = state.view.grids.length > 1 ? ` of grid ${grid.report.grid}` : '';
  $('picker-title').textContent = `${cell.name}${label} holds… (${corrected ? 'you set' : 'read as'} ${read})`;
  const digits = $('picker-digits');
  digits.replaceChildren();
  for (let v = 1; v <= grid.digits; v++) {
    const button = document.createElement('button');
    button.type = 'button';
    button.dataset.value = String(v);
    button.textContent = grid.symbols[v];
    if (v === cell.value) button.className = 'current';
    digits.append(button);
  }
  digits.style.setProperty('--columns', grid.digits > 9 ? 8 : grid.digits);
  $('picker-read').disabled = !corrected;
  $('picker').hidden = false;
  drawMarks();
}

function closePicker() {
  state.selected = null;
  $('picker').hidden = true;
  if (state.view && state.view.grids.length) drawMarks();
}

async function correct(value) {
  const { grid, cell } = state.selected;
  closePicker();
  try {
    await busy('Solving again…', async () => {
      const start = performance.now();
      state.view = await ask('correct', { grid, cell, value });
      const ms = performance.now() - start;
      await draw();
      publish(state.view, ms);
    });
  } catch (e) {
    showMessage([`That correction failed: ${e.message}`], 'error');
  }
}

// Saves the answer image: the share sheet where the device has one (a
// phone saves to its photos from there), else a download.
async function save() {
  const canvas = $('canvas');
  const blob = await new Promise((resolve) => canvas.toBlob(resolve, 'image/jpeg', 0.92));
  if (!blob) return;
  const stem = state.name.replace(/\.[^.]*$/, '') || 'photo';
  const file = new File([blob], `${stem}.solved.jpg`, { type: 'image/jpeg' });
  if (navigator.canShare && navigator.canShare({ files: [file] })) {
    try {
      await navigator.share({ files: [file] });
      return;
    } catch (e) {
      if (e.name === 'AbortError') return;
    }
  }
  const link = document.createElement('a');
  link.href = URL.createObjectURL(file);
  link.download = file.name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10000);
}
