// Chat page: ask over the WebSocket, show each step of the run as it happens, then the verified answer.
// A dropped socket reconnects and resumes after the last event seen; no event is shown twice.
(function () {
  "use strict";
  const root = document.getElementById("chat");
  if (!root) return;
  const R = window.ChatRender;
  const el = R.el;
  const fmt = R.fmt;
  const config = JSON.parse(document.getElementById("chat-config").textContent);
  const T = JSON.parse(document.getElementById("chat-strings").textContent);
  const turns = document.getElementById("turns");
  const form = document.getElementById("ask-form");
  const input = document.getElementById("question");
  const button = document.getElementById("ask-button");
  const errorBox = document.getElementById("chat-error");
  const statusBox = document.getElementById("conn-status");
  const REFUSED = [4401, 4403, 4404];
  const MAX_RETRIES = 8;

  const runs = new Map(); // trace_id -> {turn, timeline, reply, lastSeq, finished, tools}
  const seen = new Set(); // "trace_id:seq" of every event already shown
  let pending = null; // {turn, question, sent}: asked, not yet tied to a run
  let ready = null; // Promise of the open socket (resolved on conversation.ready)
  let retries = 0;
  let refused = false;

  function showError(message, code) {
    errorBox.textContent = message ? T.error + ": " + message + (code ? " (" + code + ")" : "") : "";
  }

  function setStatus(text) {
    statusBox.textContent = text || "";
  }

  function busy() {
    return pending !== null || [...runs.values()].some((r) => !r.finished);
  }

  function updateBusy() {
    const active = busy();
    if (button) {
      button.disabled = active || refused;
      button.textContent = active ? T.asking : T.ask;
    }
    root.classList.toggle("running", active);
    document.querySelectorAll("#turns .chip").forEach((chip) => {
      chip.disabled = active || refused || !form;
    });
  }

  function createTurn(question) {
    const placeholder = document.getElementById("no-turns");
    if (placeholder) placeholder.remove();
    const turn = el("article", "turn live");
    turn.append(el("div", "question", question));
    turn.append(el("div", "reply"));
    turns.append(turn);
    turn.scrollIntoView({ block: "nearest" });
    return turn;
  }

  function track(turn, traceId) {
    let timeline = turn.querySelector("ol.timeline.live");
    if (!timeline) {
      const details = el("details", "steps live-steps");
      details.open = true;
      details.append(el("summary", null, T.steps));
      timeline = el("ol", "timeline live");
      details.append(timeline);
      turn.insertBefore(details, turn.querySelector(".reply"));
    }
    turn.dataset.trace = traceId;
    turn.classList.add("live");
    const run = { turn, timeline, reply: turn.querySelector(".reply"), lastSeq: 0, finished: false, tools: new Map() };
    runs.set(traceId, run);
    return run;
  }

  function bindPending(traceId) {
    const run = track(pending.turn, traceId);
    pending = null;
    return run;
  }

  function failPending(message, code) {
    if (!pending) return;
    const { turn, question } = pending;
    pending = null;
    turn.classList.remove("live");
    turn.classList.add("not-sent");
    turn.querySelector(".reply").append(el("p", "error", message + (code ? " (" + code + ")" : "")));
    if (input && !input.value) input.value = question;
    updateBusy();
  }

  // Steps stay in seq order even if a replayed event arrives after a later live one.
  function addStep(run, event, className, text) {
    const item = el("li", "step " + className, text);
    item.dataset.seq = String(event.seq);
    const later = [...run.timeline.children].find((li) => Number(li.dataset.seq) > event.seq);
    run.timeline.insertBefore(item, later || null);
    return item;
  }

  function planText(data) {
    const tools = (data.tool_calls || []).map((c) => c.name).join(", ");
    const parts = [];
    if (data.text) parts.push(data.text);
    if (tools) parts.push(fmt(T.calls, { tools }));
    return parts.length ? fmt(T.plan, { text: parts.join(" → ") }) : T.writing;
  }

  // The verify event's own short status is for people; the reasons are only a fallback for older runs.
  function verifyText(data) {
    const retry = !data.passed && data.retry ? " — " + T.verify_retry : "";
    if (data.message) return (data.passed ? "" : T.verify_failed + ": ") + data.message + retry;
    if (data.passed) return T.verify_passed;
    const reasons = (data.reasons || []).map((r) => r.message || r.code).filter(Boolean);
    return T.verify_failed + (reasons.length ? ": " + reasons.join("; ") : "") + retry;
  }

  function toolFinished(run, event) {
    const data = event.data;
    const ok = data.status === "ok";
    const text = R.stepText(
      { step: data.step, tool: data.tool, status: data.status, rows: data.rows, latency_ms: data.latency_ms, error: data.error },
      T,
    );
    const started = run.tools.get(data.call_id);
    const item = started || addStep(run, event, "step-tool", text);
    item.textContent = text;
    item.classList.remove("running");
    item.classList.add(ok ? "ok" : "bad");
    item.dataset.tool = data.tool || "";
  }

  function renderEvent(run, event) {
    const data = event.data || {};
    switch (event.type) {
      case "run.started":
        addStep(run, event, "step-started", fmt(T.started, { source: data.source || "" }));
        break;
      case "plan": {
        const item = addStep(run, event, "step-plan", planText(data));
        const outline = R.planOutline(data, T);
        if (outline) item.append(outline);
        break;
      }
      case "tool.started": {
        const item = addStep(run, event, "step-tool running", R.stepLabel(data, T) + data.tool + " · " + T.tool_running);
        item.dataset.tool = data.tool || "";
        run.tools.set(data.call_id, item);
        break;
      }
      case "tool.finished":
        toolFinished(run, event);
        break;
      case "verify":
        addStep(run, event, "step-verify " + (data.passed ? "ok" : "bad"), verifyText(data));
        break;
      case "answer.delta":
        if (!run.finished && typeof data.text === "string") showDelta(run, event.seq, data.text);
        break;
      case "run.finished":
      case "run.failed":
        finish(run, data.response || { status: "failed", error: {} });
        break;
      default:
        break;
    }
  }

  // The verified answer as it is typed out (pieces joined in seq order, a replayed one may come late); the
  // rendered answer, with its provenance, replaces it when run.finished arrives.
  function showDelta(run, seq, text) {
    run.deltas = run.deltas || new Map();
    run.deltas.set(seq, text);
    run.draft = run.draft || run.reply.appendChild(el("div", "answer draft"));
    run.draft.textContent = [...run.deltas.keys()]
      .sort((a, b) => a - b)
      .map((key) => run.deltas.get(key))
      .join("");
  }

  function finish(run, response) {
    run.finished = true;
    run.turn.classList.remove("live");
    R.renderResponse(run.reply, response, { T, onAsk: form ? ask : null, withSteps: false });
    updateBusy();
  }

  function onEvent(event) {
    const key = event.trace_id + ":" + event.seq;
    if (seen.has(key)) return;
    seen.add(key);
    let run = runs.get(event.trace_id);
    if (!run) {
      if (pending && pending.sent) run = bindPending(event.trace_id);
      else run = track(createTurn((event.data && event.data.question) || "…"), event.trace_id);
    }
    run.lastSeq = Math.max(run.lastSeq, event.seq);
    renderEvent(run, event);
  }

  function handle(message) {
    if (message.type === "ask.accepted") {
      if (!runs.has(message.trace_id)) {
        if (pending) bindPending(message.trace_id);
        else track(createTurn("…"), message.trace_id);
      }
      updateBusy();
    } else if (message.type === "error") {
      if (pending && pending.sent) failPending(message.message, message.code);
      else showError(message.message, message.code);
    } else if (message.trace_id && typeof message.seq === "number") {
      onEvent(message);
    }
  }

  function onReady(socket, message) {
    const active = message.active_run;
    if (active && !runs.has(active.trace_id)) {
      if (pending && pending.sent) bindPending(active.trace_id);
      else track(createTurn("…"), active.trace_id);
    }
    if (pending && pending.sent) failPending(T.lost_question);
    for (const [traceId, run] of runs) {
      if (!run.finished) socket.send(JSON.stringify({ type: "resume", trace_id: traceId, after: run.lastSeq }));
    }
    updateBusy();
  }

  function onClosed(event) {
    if (REFUSED.includes(event.code)) {
      refused = true;
      setStatus("");
      updateBusy();
      return;
    }
    const following = [...runs.values()].some((r) => !r.finished) || (pending !== null && pending.sent);
    if (!following) {
      setStatus("");
      return; // idle: the next question opens a new socket
    }
    retries += 1;
    if (retries > MAX_RETRIES) {
      setStatus("");
      showError(T.connection_failed);
      failPending(T.connection_failed);
      for (const run of runs.values()) {
        if (run.finished) continue;
        run.finished = true; // given up on: its answer is stored, and shows after a reload
        run.turn.classList.remove("live");
        run.reply.append(el("p", "error", T.connection_failed));
      }
      updateBusy();
      return;
    }
    setStatus(T.reconnecting);
    setTimeout(() => connect().catch(() => {}), Math.min(500 * 2 ** (retries - 1), 5000));
  }

  function connect() {
    if (ready) return ready;
    ready = new Promise((resolve, reject) => {
      const scheme = location.protocol === "https:" ? "wss://" : "ws://";
      const socket = new WebSocket(scheme + location.host + config.ws_path);
      let opened = false;
      let refusal = "";
      if (!retries) setStatus(T.connecting);
      socket.onmessage = (e) => {
        let message;
        try {
          message = JSON.parse(e.data);
        } catch (err) {
          return;
        }
        if (message.type === "conversation.ready") {
          if (opened) return; // once per socket
          opened = true;
          retries = 0;
          setStatus("");
          resolve(socket);
          onReady(socket, message);
        } else {
          if (!opened && message.type === "error") refusal = message.message;
          handle(message);
        }
      };
      socket.onclose = (e) => {
        ready = null;
        if (!opened) reject(new Error(refusal || T.connection_failed));
        onClosed(e);
      };
    });
    return ready;
  }

  async function ask(question) {
    question = (question || "").trim();
    if (!question) return showError(T.empty_question);
    if (busy() || refused) return;
    showError("");
    pending = { turn: createTurn(question), question, sent: false };
    updateBusy();
    try {
      const socket = await connect();
      socket.send(JSON.stringify({ type: "ask", question }));
      if (pending) pending.sent = true;
    } catch (err) {
      failPending(err.message);
    }
  }

  // Turns loaded with the page: full answers from the stored responses; a run still going is followed live.
  let follow = false;
  for (const item of config.history) {
    const turn = turns.querySelector('[data-message="' + Number(item.id) + '"]');
    if (!turn) continue;
    if (item.response) {
      R.renderResponse(turn.querySelector(".reply"), item.response, { T, onAsk: form ? ask : null, withSteps: true });
    } else if (item.trace_id && (item.status === "queued" || item.status === "running")) {
      track(turn, item.trace_id);
      follow = true;
    }
  }
  if (follow) connect().catch(() => {});

  if (form) {
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      if (busy() || refused) return; // Enter still submits while the button is disabled
      const question = input.value;
      if (question.trim()) input.value = "";
      ask(question);
    });
    input.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        form.requestSubmit();
      }
    });
  }
  updateBusy();
})();
