// warden's page: the person's questions, chats and settings, live from warden's event
// stream. Everything shown is built with textContent, never as HTML: a command, a file name
// or what a chat read is someone else's text, and is shown as text. Every change carries the
// session's CSRF value.
"use strict";

const csrf = document.querySelector('meta[name="warden-csrf"]').content;

// ---------------------------------------------------------------------------------------
// Small helpers

/** An element with attributes and children (strings become text). */
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") node.className = value;
    else if (name === "text") node.textContent = value;
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    node.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return node;
}

/** A request to warden: JSON in and out, the CSRF value on every one. */
async function call(method, path, body) {
  const headers = { "X-Warden-CSRF": csrf, "Accept": "application/json" };
  const init = { method, headers, credentials: "same-origin", cache: "no-store" };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = typeof body === "string" ? body : JSON.stringify(body);
  }
  const response = await fetch(path, init);
  const text = await response.text();
  let value = null;
  try { value = text ? JSON.parse(text) : null; } catch (_) { value = null; }
  if (!response.ok) {
    const why = value && value.error ? value.error : `warden answered ${response.status}`;
    const error = new Error(why);
    error.status = response.status;
    throw error;
  }
  return value;
}

function say(id, text, good) {
  const node = document.getElementById(id);
  node.textContent = text;
  node.classList.toggle("good", good === true);
  node.classList.toggle("bad", good === false);
}

function announce(text) {
  document.getElementById("live").textContent = text;
}

const path = (chat) => `/v1/chats/${encodeURIComponent(chat)}`;

const COMPANY = {
  alone: "you alone",
  guest: "a guest (their words are someone else's)",
  routine: "a routine (nobody is there)",
  app: "another app's chat",
  task: "a task",
};
const MODE = {
  ask_first: "Ask first",
  edit_freely: "Edit freely",
  plan_only: "Plan only",
  auto: "Auto",
  full_trust: "Full trust",
};
const SETTING = { allow: "Allow", ask: "Ask", off: "Off" };

// ---------------------------------------------------------------------------------------
// What the page knows

const state = {
  chats: new Map(),      // chat id → its state, as GET /v1/chats/{chat} answers
  order: [],             // chat ids, the most recent first
  more: 0,
  preferences: null,
};

async function loadChat(chat) {
  try {
    state.chats.set(chat, await call("GET", path(chat)));
  } catch (error) {
    if (error.status === 404) state.chats.delete(chat);
    else throw error;
  }
}

async function loadAll() {
  const list = await call("GET", "/v1/chats?limit=100");
  state.order = list.chats.map((c) => c.chat);
  state.more = list.more;
  await Promise.all(state.order.map(loadChat));
  await loadPreferences();
  return list.seq;
}

async function loadPreferences() {
  state.preferences = await call("GET", "/v1/preferences");
}

// ---------------------------------------------------------------------------------------
// Questions

function readOf(chat) {
  const marks = chat.marks || [];
  if (!marks.length && !chat.others) return el("dd", {}, "nothing untrusted");
  const list = el("ul", { class: "marks" });
  for (const mark of marks) {
    list.append(el("li", {}, mark.name, mark.provenance ? el("span", { class: "where" }, ` — from ${mark.provenance}`) : null));
  }
  if (chat.others) list.append(el("li", {}, "someone else's words"));
  return el("dd", {}, list);
}

const KIND = {
  command: "The command, as it will run",
  powershell: "The PowerShell command, as it will run",
  read: "The file or folder it reads",
  write: "The file it writes",
  patch: "The files the patch changes",
  app: "The app's tool",
  fetch: "The address it fetches",
  search: "The query it searches",
  browser: "The site",
  schedule: "What will run later",
  tool: "The tool",
};

function stepOf(shown) {
  const parts = [el("dt", {}, KIND[shown.kind] || "The step"), el("dd", {}, el("pre", {}, el("code", {}, shown.text)))];
  if (shown.detail) {
    const label = shown.kind === "app" ? "Its arguments" : shown.kind === "patch" ? "Its other files" : "What it does there";
    parts.push(el("dt", {}, label), el("dd", {}, el("pre", {}, el("code", {}, shown.detail))));
  }
  if (shown.cut > 0) {
    parts.push(el("dt", {}, "Cut"), el("dd", {}, `${shown.cut} more characters are not shown here: read the step in full before you allow it.`));
  }
  return parts;
}

const ANSWERS = [
  ["once", () => "Allow once", () => true],
  ["always", () => "Always allow in this chat", (o) => o.always],
  ["everywhere", () => "Always allow in every chat", (o) => o.everywhere],
  ["command", (o) => ["Always allow this one command: ", el("code", {}, o.rule)], (o) => !!o.rule],
  ["deny", () => "Deny", () => true],
];

function questionCard(id, chat, question) {
  const key = `q-${id}-${question.id}`;
  const card = el("article", { class: "card", "aria-labelledby": `${key}-title`, "data-chat": id, "data-question": question.id });
  card.append(el("h2", { id: `${key}-title`, tabindex: "-1" }, `${question.tool} in the chat `, el("code", {}, id)));
  card.append(el("p", { class: "reason" }, question.reason || `warden asks about ${question.class}.`));
  const facts = el("dl", { class: "facts" },
    el("dt", {}, "From the chat"), el("dd", {}, el("code", {}, id), ` (${MODE[chat.mode] || chat.mode}, ${COMPANY[chat.company] || chat.company}${chat.parent ? `, a task of ${chat.parent}` : ""})`),
    el("dt", {}, "What that chat read"), readOf(chat),
    el("dt", {}, "Why it asks"), el("dd", {}, el("code", {}, question.class)),
  );
  const shown = question.shown || [];
  if (shown.length > 1) {
    facts.append(el("dt", {}, `${shown.length} lookups asked at once`), el("dd", {}, "One answer answers them all."));
  }
  for (const step of shown) facts.append(...stepOf(step));
  if (!shown.length) facts.append(el("dt", {}, "The step"), el("dd", {}, `${question.tool} (this question was asked before warden kept its steps)`));
  if (question.offers.rule) {
    facts.append(el("dt", {}, "The rule it would keep"), el("dd", {}, el("code", {}, question.offers.rule), " — this command exactly, in this work folder, in every chat"));
  }
  card.append(facts);
  const group = el("div", { class: "answers", role: "group", "aria-label": `Answer the question about ${question.tool}` });
  const status = el("p", { class: "state", role: "status" });
  for (const [answer, label, offered] of ANSWERS) {
    if (!offered(question.offers)) continue;
    const button = el("button", { type: "button", class: answer === "deny" ? "deny" : answer === "once" ? "" : "quiet", "data-answer": answer }, label(question.offers));
    button.addEventListener("click", () => answerQuestion(id, question.id, answer, group, status));
    group.append(button);
  }
  card.append(group, status);
  return card;
}

async function answerQuestion(chat, question, answer, group, status) {
  for (const button of group.querySelectorAll("button")) button.disabled = true;
  status.textContent = "Answering…";
  try {
    await call("POST", `${path(chat)}/questions/${question}`, { answer });
    status.textContent = "Answered.";
    status.className = "state good";
    await loadChat(chat);
    if (answer === "command" || answer === "everywhere") await loadPreferences();
    render();
    announce(`Answered question ${question} in ${chat}.`);
    document.getElementById("title-questions").focus();
  } catch (error) {
    for (const button of group.querySelectorAll("button")) button.disabled = false;
    status.textContent = `Not answered: ${error.message}`;
    status.className = "state bad";
  }
}

function renderQuestions() {
  const box = document.getElementById("questions");
  const cards = [];
  for (const id of state.order) {
    const chat = state.chats.get(id);
    if (!chat) continue;
    for (const question of chat.pending || []) cards.push([question.at_ms, questionCard(id, chat, question)]);
  }
  cards.sort((a, b) => b[0] - a[0]);
  box.replaceChildren(...cards.map(([, card]) => card));
  document.getElementById("questions-empty").hidden = cards.length > 0;
  document.getElementById("question-count").textContent = cards.length ? String(cards.length) : "";
}

// ---------------------------------------------------------------------------------------
// Chats

function chatCard(id, chat) {
  const key = `c-${id}`;
  const card = el("article", { class: chat.company === "task" ? "card task" : "card", "aria-labelledby": `${key}-title` });
  card.append(el("h2", { id: `${key}-title` }, chat.company === "task" ? "Task " : "Chat ", el("code", {}, id), chat.stopped ? " (stopped)" : ""));
  const facts = el("dl", { class: "facts" },
    el("dt", {}, "Mode"), el("dd", {}, MODE[chat.mode] || chat.mode),
    el("dt", {}, "Who is in it"), el("dd", {}, COMPANY[chat.company] || chat.company),
  );
  if (chat.parent) facts.append(el("dt", {}, "A task of"), el("dd", {}, el("code", {}, chat.parent), chat.scoped ? " (scoped: none of its words or answers)" : ""));
  facts.append(el("dt", {}, "What it read"), readOf(chat));
  const counts = chat.counts || [];
  if (counts.length) {
    const totals = new Map();
    for (const c of counts) totals.set(c.kind, (totals.get(c.kind) || 0) + c.n);
    const table = el("table", { class: "counts" },
      el("caption", { class: "visually-hidden" }, `The behaviour watch's counts in ${id}, the last day`),
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Kind"), el("th", { scope: "col" }, "The last day"))),
      el("tbody", {}, [...totals].map(([kind, n]) => el("tr", {}, el("td", {}, kind), el("td", {}, String(n))))));
    facts.append(el("dt", {}, "The behaviour watch"), el("dd", {}, table));
  } else {
    facts.append(el("dt", {}, "The behaviour watch"), el("dd", {}, "nothing counted in the last day"));
  }
  const kept = chat.kept || [];
  const keptBox = el("dd", {});
  if (!kept.length) keptBox.append("none");
  else {
    const list = el("ul", { class: "kept rows" });
    for (const k of kept) {
      const status = el("span", { class: "state", role: "status" });
      const remove = el("button", { type: "button", class: "remove", "aria-label": `Forget ${k.class} for ${k.tool} in ${id}` }, "×");
      remove.addEventListener("click", async () => {
        remove.disabled = true;
        try {
          await call("DELETE", `${path(id)}/kept`, { tool: k.tool, class: k.class });
          await loadChat(id);
          render();
          announce(`Forgotten: ${k.class} for ${k.tool} in ${id}.`);
        } catch (error) {
          remove.disabled = false;
          status.textContent = `Not forgotten: ${error.message}`;
          status.className = "state bad";
        }
      });
      list.append(el("li", {}, el("span", { class: "what" }, el("code", {}, k.class), ` for ${k.tool}`), remove, status));
    }
    keptBox.append(list);
  }
  facts.append(el("dt", {}, "Always allowed in this chat"), keptBox);
  if ((chat.tasks || []).length) facts.append(el("dt", {}, "Its tasks"), el("dd", {}, chat.tasks.join(", ")));
  const waiting = (chat.pending || []).length;
  facts.append(el("dt", {}, "Questions waiting"), el("dd", {}, String(waiting)));
  card.append(facts);
  return card;
}

function renderChats() {
  const box = document.getElementById("chats");
  const cards = state.order.filter((id) => state.chats.has(id)).map((id) => chatCard(id, state.chats.get(id)));
  if (state.more) cards.push(el("p", { class: "help" }, `And ${state.more} older chats, not shown.`));
  box.replaceChildren(...cards);
  document.getElementById("chats-empty").hidden = cards.length > 0;
}

// ---------------------------------------------------------------------------------------
// Settings → Safety

function row(what, label, onRemove) {
  const status = el("span", { class: "state", role: "status" });
  const remove = el("button", { type: "button", class: "remove", "aria-label": label }, "×");
  remove.addEventListener("click", async () => {
    remove.disabled = true;
    try {
      await onRemove();
      await loadPreferences();
      render();
      announce(`Done: ${label.charAt(0).toLowerCase()}${label.slice(1)}.`);
    } catch (error) {
      remove.disabled = false;
      status.textContent = `Not removed: ${error.message}`;
      status.className = "state bad";
    }
  });
  return el("li", {}, el("span", { class: "what" }, what), remove, status);
}

function renderSafety() {
  const p = state.preferences;
  if (!p) return;
  const everywhere = document.getElementById("everywhere");
  everywhere.replaceChildren(...p.auto_allowed.map((k) => row([el("code", {}, k.class), ` for ${k.tool}`], `Remove ${k.class} for ${k.tool} from every chat`,
    () => call("DELETE", "/v1/preferences/everywhere", { tool: k.tool, class: k.class }))));
  document.getElementById("everywhere-empty").hidden = p.auto_allowed.length > 0;

  const rules = document.getElementById("rules");
  rules.replaceChildren(...p.auto_rules.map((r) => row([el("code", {}, r.rule), el("span", { class: "where" }, r.cwd ? ` in ${r.cwd}` : " in any folder")],
    `Forget the rule ${r.rule}${r.cwd ? ` in ${r.cwd}` : ""}`,
    () => call("DELETE", "/v1/preferences/rules", { rule: r.rule, cwd: r.cwd }))));
  document.getElementById("rules-empty").hidden = p.auto_rules.length > 0;

  const tools = document.getElementById("tools");
  const entries = Object.entries(p.settings);
  tools.replaceChildren(...entries.map(([key, setting]) => toolRow(key, setting)));
  document.getElementById("tools-empty").hidden = entries.length > 0;

  const protectedList = document.getElementById("protected");
  protectedList.replaceChildren(...(p.protected || []).map((path) => el("li", {}, el("code", {}, path))));

  const note = document.getElementById("note");
  if (document.activeElement !== note && !noteDirty) note.value = p.note;
  noteCount();
}

function toolRow(key, setting) {
  const at = key.indexOf(":");
  const app = key.slice(0, at);
  const tool = key.slice(at + 1);
  const id = `tool-${[...key].map((c) => c.charCodeAt(0).toString(16)).join("")}`;
  const select = el("select", { id, "data-key": key },
    ...Object.entries(SETTING).map(([value, label]) => el("option", { value, selected: value === setting }, label)),
    el("option", { value: "default" }, "Default (no setting)"));
  const status = el("span", { class: "state", role: "status" });
  select.addEventListener("change", async () => {
    const value = select.value === "default" ? null : select.value;
    try {
      await call("PUT", "/v1/preferences/settings", { app, tool, setting: value });
      await loadPreferences();
      render();
      say("tools-state", `${key}: ${value ? SETTING[value] : "back to the default"}.`, true);
    } catch (error) {
      status.textContent = `Not changed: ${error.message}`;
      status.className = "state bad";
    }
  });
  return el("li", {}, el("label", { for: id, class: "what" }, el("code", {}, key)), select, status);
}

// The note: saved as it is typed, with what happened said in words.
let noteDirty = false;
let noteTimer = null;

function noteCount() {
  const n = [...document.getElementById("note").value].length;
  document.getElementById("note-count").textContent = `${n} of 2,000 characters`;
}

async function saveNote() {
  clearTimeout(noteTimer);
  if (!noteDirty) return;
  const text = document.getElementById("note").value;
  noteDirty = false;
  say("note-state", "Saving…");
  try {
    await call("PUT", "/v1/preferences/note", { note: text });
    say("note-state", "Saved", true);
    if (state.preferences) state.preferences.note = text;
  } catch (error) {
    noteDirty = true;
    say("note-state", `Not saved: ${error.message}`, false);
  }
}

// ---------------------------------------------------------------------------------------
// Import and export

let importing = null;

function previewList(title, items) {
  if (!items.length) return [];
  return [el("h4", {}, title), el("ul", {}, items.map((item) => el("li", {}, item)))];
}

async function previewFile(file) {
  importing = null;
  document.getElementById("preview").hidden = true;
  say("import-state", "Reading the file…");
  let text;
  try {
    text = await file.text();
    JSON.parse(text);
  } catch (error) {
    say("import-state", `This file is not a settings file: ${error.message}`, false);
    return;
  }
  try {
    const preview = await call("POST", "/v1/preferences/import", text);
    importing = { file: JSON.parse(text), preview: preview.preview };
    const body = document.getElementById("preview-body");
    const parts = [
      ...previewList("It would allow in every chat", preview.allowed_everywhere.map((k) => [el("code", {}, k.class), ` for ${k.tool}`])),
      ...previewList("It would never ask about these commands", preview.rules.map((r) => [el("code", {}, r.rule), r.cwd ? ` in ${r.cwd}` : " in any folder"])),
      ...previewList("It would change these tool settings", preview.settings.map((s) => [el("code", {}, `${s.app}:${s.tool}`), ` from ${s.was ? SETTING[s.was] : "the default"} to ${SETTING[s.setting]}`])),
    ];
    if (preview.note) {
      parts.push(el("h4", {}, "It would replace the note about where you work with"), el("blockquote", {}, el("p", {}, preview.note.first_words)), el("p", { class: "help" }, `${preview.note.chars} characters in all.`));
    }
    if (preview.empty) parts.push(el("p", {}, "It would change nothing: everything in it is in force already."));
    if (preview.unchanged) parts.push(el("p", { class: "help" }, `${preview.unchanged} of its entries are in force already.`));
    parts.push(...previewList("warden would not keep these", preview.refused.map((r) => [el("code", {}, r.what), ` — ${r.why}`])));
    body.replaceChildren(...parts);
    document.getElementById("import-apply").hidden = preview.empty;
    const box = document.getElementById("preview");
    box.hidden = false;
    say("import-state", "Nothing has changed yet: read what the file would do, then import it or cancel.");
    box.focus();
  } catch (error) {
    say("import-state", `This file can't be imported: ${error.message}`, false);
  }
}

async function applyImport() {
  if (!importing) return;
  try {
    const done = await call("POST", "/v1/preferences/import/apply", importing);
    importing = null;
    document.getElementById("preview").hidden = true;
    document.getElementById("import-file").value = "";
    await loadPreferences();
    render();
    say("import-state", `Imported: ${done.changed} changes.`, true);
  } catch (error) {
    say("import-state", `Not imported: ${error.message}`, false);
  }
}

// ---------------------------------------------------------------------------------------
// Screens and the stream

const SCREENS = ["questions", "chats", "safety", "import"];

function show() {
  const wanted = location.hash.slice(1);
  const screen = SCREENS.includes(wanted) ? wanted : "questions";
  for (const name of SCREENS) {
    document.getElementById(`screen-${name}`).hidden = name !== screen;
    const link = document.getElementById(`nav-${name}`);
    if (name === screen) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  return screen;
}

function render() {
  renderQuestions();
  renderChats();
  renderSafety();
}

const refreshing = new Map();

function refresh(chat) {
  if (!state.order.includes(chat)) state.order.unshift(chat);
  clearTimeout(refreshing.get(chat));
  refreshing.set(chat, setTimeout(async () => {
    refreshing.delete(chat);
    await loadChat(chat);
    render();
  }, 50));
}

function listen(after) {
  const source = new EventSource(`/v1/events?after=${after}`);
  source.addEventListener("open", () => announce("Live: new questions appear here as they are asked."));
  source.addEventListener("error", () => announce("Reconnecting to warden…"));
  source.addEventListener("asked", (e) => {
    const data = JSON.parse(e.data);
    refresh(data.chat);
    announce(`A new question from the chat ${data.chat}: ${data.reason}`);
  });
  for (const name of ["joined", "answered", "opened", "mode", "stopped"]) {
    source.addEventListener(name, (e) => refresh(JSON.parse(e.data).chat));
  }
  source.addEventListener("preference", async () => {
    await loadPreferences();
    render();
  });
}

async function start() {
  window.addEventListener("hashchange", () => {
    const screen = show();
    document.getElementById(`title-${screen}`).focus();
  });
  show();
  document.getElementById("sign-out").addEventListener("click", async () => {
    try { await call("POST", "/page/sign-out"); } finally { location.reload(); }
  });
  const note = document.getElementById("note");
  note.addEventListener("input", () => {
    noteDirty = true;
    noteCount();
    say("note-state", "Not saved yet…");
    clearTimeout(noteTimer);
    noteTimer = setTimeout(saveNote, 600);
  });
  note.addEventListener("blur", saveNote);
  document.getElementById("tool-add").addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = event.target;
    const app = form.app.value.trim();
    const tool = form.tool.value.trim();
    try {
      await call("PUT", "/v1/preferences/settings", { app, tool, setting: form.setting.value });
      await loadPreferences();
      render();
      form.reset();
      say("tools-state", `${app}:${tool}: ${SETTING[form.setting.value] || "set"}.`, true);
    } catch (error) {
      say("tools-state", `Not set: ${error.message}`, false);
    }
  });
  document.getElementById("import-file").addEventListener("change", (event) => {
    const [file] = event.target.files;
    if (file) previewFile(file);
  });
  document.getElementById("import-apply").addEventListener("click", applyImport);
  document.getElementById("import-cancel").addEventListener("click", () => {
    importing = null;
    document.getElementById("preview").hidden = true;
    document.getElementById("import-file").value = "";
    say("import-state", "Cancelled: nothing was imported.");
  });
  try {
    const seq = await loadAll();
    render();
    listen(seq);
  } catch (error) {
    announce(`warden could not be read: ${error.message}. Reload the page, or sign in again with warden page.`);
  }
}

start();
