// Chat answers: text with traced numbers, what was checked, how it was computed, result tables, ECharts charts,
// downloads, follow-up chips, errors; and clarifications (a question back with its choices as chips).
// Every piece of data goes into the page through textContent or attributes, never as HTML.
(function () {
  "use strict";
  const MAX_TABLE_ROWS = 100;
  const DIGIT = /[0-9]/;
  const charts = [];

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function fmt(template, values) {
    return template.replace(/%\((\w+)\)s/g, (whole, key) => (key in values ? String(values[key]) : whole));
  }

  // A number in the answer must stand alone: "4" does not match inside "297,091.86" or "2025".
  function standsAlone(text, start, end) {
    const before = text[start - 1] || "";
    const after = text[end] || "";
    if (DIGIT.test(before) || DIGIT.test(after)) return false;
    if ((before === "." || before === ",") && DIGIT.test(text[start - 2] || "")) return false;
    if ((after === "." || after === ",") && DIGIT.test(text[end + 1] || "")) return false;
    return true;
  }

  // Where each grounded number sits in the answer: [{start, end, item}] sorted, without overlaps.
  function locateGrounding(answer, grounding) {
    const claimed = [];
    const overlaps = (s, e) => claimed.some((c) => s < c.end && c.start < e);
    const ordered = grounding
      .filter((g) => g && typeof g.text === "string" && g.text.length)
      .map((g, i) => ({ g, i }))
      .sort((a, b) => b.g.text.length - a.g.text.length || a.i - b.i);
    for (const { g } of ordered) {
      let from = 0;
      while (from <= answer.length) {
        const start = answer.indexOf(g.text, from);
        if (start < 0) break;
        const end = start + g.text.length;
        if (standsAlone(answer, start, end) && !overlaps(start, end)) {
          claimed.push({ start, end, item: g });
          break;
        }
        from = start + 1;
      }
    }
    return claimed.sort((a, b) => a.start - b.start);
  }

  function stepOf(response, number) {
    const steps = (response.audit && response.audit.steps) || [];
    return steps.find((s) => s.step === number) || null;
  }

  // The row a traced number came from, as [column, shown value] pairs (the whole column: none).
  function rowOf(tables, ref, row) {
    const table = tables.find((t) => t.ref === ref);
    if (!table || row === null || row === undefined || !(table.rows || [])[row]) return [];
    return (table.columns || []).map((c, i) => [c, cellText(table.rows[row][i])]);
  }

  let popovers = 0;

  // A traced number's provenance, shown in a popover while it has focus or the pointer (or after a tap):
  // the step and tool, the row and column, and the row itself. The answer's traced numbers are one tab
  // stop; the arrow keys move between them, Escape closes the popover.
  function provenancePopover(node) {
    const popover = el("div", "provenance");
    popover.id = "provenance-" + ++popovers;
    popover.setAttribute("role", "tooltip");
    popover.hidden = true;
    node.append(popover);
    let owner = null;
    const hide = () => {
      if (!owner) return;
      owner.removeAttribute("aria-describedby");
      if (owner.cell) owner.cell.classList.remove("highlight");
      owner = null;
      popover.hidden = true;
    };
    const show = (span) => {
      hide();
      owner = span;
      popover.textContent = "";
      popover.append(el("p", "provenance-where", span.dataset.provenance));
      if (span.row.length) {
        const list = el("dl", "provenance-row");
        span.row.forEach(([column, value]) => list.append(el("dt", null, column), el("dd", null, value)));
        popover.append(list);
      }
      popover.hidden = false;
      span.setAttribute("aria-describedby", popover.id);
      if (span.cell) span.cell.classList.add("highlight");
      const room = node.clientWidth - popover.offsetWidth;
      popover.style.left = Math.max(0, Math.min(span.offsetLeft, room)) + "px";
      popover.style.top = span.offsetTop + span.offsetHeight + 4 + "px";
    };
    return { show, hide, isOpenFor: (span) => owner === span };
  }

  function moveFocus(spans, from, to) {
    const target = spans[(to + spans.length) % spans.length];
    spans[from].tabIndex = -1;
    target.tabIndex = 0;
    target.focus();
  }

  function renderAnswer(box, response, cells, tables, T) {
    const answer = response.answer || "";
    if (!answer) return;
    const node = el("div", "answer");
    const grounding = (response.verification && response.verification.grounding) || [];
    const located = locateGrounding(answer, grounding);
    const popover = located.length ? provenancePopover(node) : null;
    const spans = [];
    let at = 0;
    for (const { start, end, item } of located) {
      if (start > at) node.append(document.createTextNode(answer.slice(at, start)));
      const span = el("span", "grounded", answer.slice(start, end));
      const step = stepOf(response, item.step);
      const wholeColumn = item.row === null || item.row === undefined;
      const where = { step: item.step, tool: step ? step.tool : "", row: wholeColumn ? "" : item.row + 1 };
      where.column = item.column;
      span.dataset.provenance = fmt(wholeColumn ? T.grounded_all : T.grounded, where);
      span.dataset.step = String(item.step);
      span.tabIndex = spans.length ? -1 : 0;
      span.row = step && step.ref ? rowOf(response.tables || tables, step.ref, item.row) : [];
      span.cell = step && step.ref ? cells.get(step.ref + "|" + item.row + "|" + item.column) : null;
      const index = spans.length;
      span.addEventListener("mouseenter", () => popover.show(span));
      span.addEventListener("mouseleave", () => document.activeElement !== span && popover.hide());
      span.addEventListener("focus", () => popover.show(span));
      span.addEventListener("blur", () => popover.hide());
      span.addEventListener("click", () => (popover.isOpenFor(span) ? popover.hide() : popover.show(span)));
      span.addEventListener("keydown", (event) => {
        if (event.key === "Escape") popover.hide();
        else if (event.key === "ArrowRight" || event.key === "ArrowDown") moveFocus(spans, index, index + 1);
        else if (event.key === "ArrowLeft" || event.key === "ArrowUp") moveFocus(spans, index, index - 1);
        else if (event.key === "Home") moveFocus(spans, index, 0);
        else if (event.key === "End") moveFocus(spans, index, spans.length - 1);
        else return;
        event.preventDefault();
      });
      spans.push(span);
      node.append(span);
      at = end;
    }
    if (at < answer.length) node.append(document.createTextNode(answer.slice(at)));
    if (spans.length) node.setAttribute("aria-description", T.traced_hint);
    box.append(node);
  }

  // What verify checked, in words: numbers bound to their rows, parts of the question applied, every warning.
  function checkedFacts(verification, T) {
    const grounding = verification.grounding || [];
    const coverage = verification.coverage || [];
    const checks = verification.checks || [];
    const applied = coverage.filter((c) => c.status === "applied");
    const facts = [];
    const count = grounding.length;
    if (count) facts.push(["numbers", fmt(count === 1 ? T.checked_number : T.checked_numbers, { count })]);
    if (checks.includes("labels_bound")) facts.push(["labels", T.checked_labels]);
    if (applied.length) {
      const anchors = applied.map((c) => c.anchor).join(", ");
      const template = applied.length === 1 ? T.checked_part : T.checked_coverage;
      facts.push(["coverage", fmt(template, { count: applied.length, anchors })]);
    }
    for (const c of coverage) {
      if (c.status === "disclosed") {
        facts.push(["disclosed", fmt(T.checked_disclosed, { anchor: c.anchor }) + (c.how ? " — " + c.how : "")]);
      }
      if (c.status === "missing") facts.push(["missing", fmt(T.checked_missing, { anchor: c.anchor })]);
    }
    if (checks.includes("no_fake_data")) facts.push(["no-fake", T.checked_no_fake]);
    return facts;
  }

  function renderChecks(box, verification, T) {
    if (!verification || !verification.passed) return;
    const facts = checkedFacts(verification, T);
    const coverage = verification.coverage || [];
    const labels = (verification.checks || []).includes("labels_bound");
    const definitions = labels || coverage.some((c) => c.status !== "missing");
    let title = T.checked_nothing;
    if (definitions) title = T.checked_title;
    else if ((verification.grounding || []).length) title = T.checked_numbers_title;
    const badge = el("div", "verified");
    badge.append(el("strong", null, title));
    if (facts.length) {
      const list = el("ul", "checks");
      facts.forEach(([kind, text]) => list.append(el("li", "check " + kind, text)));
      badge.append(list);
    }
    const warnings = verification.warnings || [];
    if (warnings.length) {
      const list = el("ul", "warnings");
      warnings.forEach((w) => {
        const item = el("li", "warning", fmt(T.warning, { message: w.message || w.code || "" }));
        item.dataset.code = w.code || "";
        list.append(item);
      });
      badge.append(list);
    }
    box.append(badge);
  }

  function explanationField(list, label, value) {
    const given = (v) => v !== null && v !== undefined && v !== "";
    const values = Array.isArray(value) ? value.filter(given) : given(value) ? [value] : [];
    if (!values.length) return;
    list.append(el("dt", null, label));
    const dd = el("dd");
    if (values.length === 1) dd.textContent = String(values[0]);
    else {
      const items = el("ul");
      values.forEach((v) => items.append(el("li", null, v)));
      dd.append(items);
    }
    list.append(dd);
  }

  function explanationItem(e, T) {
    const item = el("section", "explain-item");
    item.dataset.ref = e.ref || "";
    const head = el("p", "explain-text");
    head.append(el("strong", null, e.ref || ""), document.createTextNode(" " + (e.text || "")));
    item.append(head);
    const fields = el("dl", "explain-fields");
    const filters = e.filters && e.filters.length ? e.filters : e.sql ? [] : [T.explain_no_filters];
    explanationField(fields, T.explain_source, e.source);
    explanationField(fields, T.explain_filters, filters);
    explanationField(fields, T.explain_grouping, e.grouping);
    explanationField(fields, T.explain_measures, (e.measures || []).map((m) => m.name + " = " + m.formula));
    explanationField(fields, T.explain_windows, e.windows);
    explanationField(fields, T.explain_sort, e.sort_limit);
    explanationField(fields, T.explain_rows, (e.rows ? String(e.rows) : "0 · " + T.no_rows) + (e.truncated ? " " + T.explain_more_rows : ""));
    explanationField(fields, T.explain_assumptions, e.assumptions);
    item.append(fields);
    if (e.sql) {
      const sql = el("details", "explain-sql");
      sql.append(el("summary", null, "SQL"), el("pre", null, e.sql));
      item.append(sql);
    }
    return item;
  }

  // "How it was computed": one entry per executed query, closed until asked for.
  function renderExplanation(box, explanations, T) {
    if (!explanations || !explanations.length) return;
    const details = el("details", "explanation");
    details.append(el("summary", null, T.explanation + " (" + explanations.length + ")"));
    explanations.forEach((e) => details.append(explanationItem(e, T)));
    box.append(details);
  }

  // Numbers read as they do in the answer's text (apps/agent/references.py _number): thousands grouped, a year
  // as written, at most two decimals (more for small fractions), no trailing zeros. The downloads keep every digit.
  function numberText(value) {
    if (Number.isInteger(value)) {
      return value >= 1900 && value <= 2100 ? String(value) : value.toLocaleString("en-US");
    }
    const size = Math.abs(value);
    const decimals = size >= 1 || size === 0 ? 2 : Math.max(2, 3 - Math.floor(Math.log10(size)));
    return value.toLocaleString("en-US", { minimumFractionDigits: 0, maximumFractionDigits: decimals });
  }

  function cellText(value) {
    if (value === null || value === undefined) return "";
    if (typeof value !== "number") return String(value);
    return numberText(value);
  }

  function renderTable(table, cells, T) {
    const wrap = el("div", "scroll result-table");
    const grid = el("table", "grid");
    grid.dataset.ref = table.ref || "";
    grid.append(el("caption", null, table.name || table.ref || ""));
    const head = el("tr");
    (table.columns || []).forEach((c) => head.append(el("th", null, c)));
    const thead = el("thead");
    thead.append(head);
    grid.append(thead);
    const body = el("tbody");
    (table.rows || []).slice(0, MAX_TABLE_ROWS).forEach((row, r) => {
      const tr = el("tr");
      row.forEach((value, c) => {
        const td = el("td", typeof value === "number" ? "num" : null, cellText(value));
        tr.append(td);
        cells.set((table.ref || "") + "|" + r + "|" + table.columns[c], td);
      });
      body.append(tr);
    });
    if (!(table.rows || []).length) {
      // An empty result says so in words, not with an empty grid or a dash.
      const cell = el("td", "muted no-rows", T.no_rows);
      cell.colSpan = Math.max(1, (table.columns || []).length);
      const tr = el("tr");
      tr.append(cell);
      body.append(tr);
    }
    grid.append(body);
    wrap.append(grid);
    const total = table.row_count || (table.rows || []).length;
    if (total > MAX_TABLE_ROWS || (table.rows || []).length < total) {
      wrap.append(el("p", "muted", fmt(T.rows_shown, { shown: Math.min(MAX_TABLE_ROWS, (table.rows || []).length), total })));
    }
    return wrap;
  }

  // The horizontal axis's name goes under the middle of the axis, below its labels: at the axis's end (ECharts'
  // default) a long name runs past the chart's right edge and is cut off, on a phone most of all.
  function axisNamesInside(option) {
    const copy = Object.assign({}, option);
    if (copy.xAxis && !Array.isArray(copy.xAxis) && copy.xAxis.name) {
      copy.xAxis = Object.assign({}, copy.xAxis, { nameLocation: "middle", nameGap: 30 });
      const grid = Object.assign({}, copy.grid || {});
      grid.bottom = Math.max(Number(grid.bottom) || 0, 48);
      copy.grid = grid;
    }
    return copy;
  }

  function renderCharts(box, list, T) {
    if (!list || !list.length) return;
    if (!window.echarts) {
      box.append(el("p", "error", T.charts_unavailable));
      return;
    }
    list.forEach((chart) => {
      const div = el("div", "chart");
      div.dataset.result = chart.result || "";
      div.dataset.type = chart.type || "";
      box.append(div); // attached first: ECharts measures the element
      const instance = window.echarts.init(div, null, { renderer: "canvas" });
      instance.setOption(axisNamesInside(chart.option || {}));
      charts.push(instance);
    });
  }

  function sameOrigin(link) {
    try {
      return typeof link === "string" && new URL(link, window.location.href).origin === window.location.origin;
    } catch (err) {
      return false;
    }
  }

  function renderDownloads(box, links, T) {
    const safe = (links || []).filter(sameOrigin);
    if (!safe.length) return;
    const bar = el("div", "downloads");
    safe.forEach((link) => {
      const file = link.split("/").pop() || "";
      const dot = file.lastIndexOf(".");
      const name = dot > 0 ? file.slice(0, dot) : file;
      const format = dot > 0 ? file.slice(dot + 1).toUpperCase() : "";
      const a = el("a", "button download", fmt(T.download, { name, format }));
      a.href = link;
      a.setAttribute("download", "");
      bar.append(a);
    });
    box.append(bar);
  }

  function renderChips(box, questions, onAsk, T, label) {
    if (!questions || !questions.length) return;
    const bar = el("div", "chips");
    bar.append(el("span", "muted", label || T.recommended));
    questions.forEach((q) => {
      const chip = el("button", "chip", q);
      chip.type = "button";
      chip.disabled = !onAsk;
      if (onAsk) chip.addEventListener("click", () => onAsk(q));
      bar.append(chip);
    });
    box.append(bar);
  }

  // A question back instead of an answer: nothing was computed, so there is no number to check; each choice is
  // a complete question, asked when its chip is clicked.
  function renderClarification(box, clarification, onAsk, T) {
    const node = el("div", "clarification");
    node.append(el("strong", "clarification-label", T.needs_choice));
    node.append(el("div", "answer clarification-question", clarification.question || ""));
    box.append(node);
    renderChips(box, clarification.choices, onAsk, T, T.choose);
  }

  function renderError(box, response, T) {
    const error = response.error || {};
    const note = el("div", "notice run-error " + response.status);
    note.append(el("strong", null, response.status === "intercepted" ? T.intercepted : T.failed));
    if (error.message) note.append(el("p", "error-message", error.message));
    if (error.suggestions && error.suggestions.length) {
      note.append(el("p", "muted", T.suggestions));
      const list = el("ul", "suggestions");
      error.suggestions.forEach((s) => list.append(el("li", null, s)));
      note.append(list);
    }
    box.append(note);
  }

  // A plan step's structured plan: its round, task analysis and execution plan (checked text, shown as text).
  function planOutline(data, T) {
    const analysis = typeof data.task_analysis === "string" ? data.task_analysis : "";
    const plan = typeof data.execution_plan === "string" ? data.execution_plan : "";
    if (!analysis && !plan) return null;
    const box = el("div", "plan-outline");
    if (data.current_round) box.dataset.round = String(data.current_round);
    const line = (className, label, text) => {
      const p = el("p", className);
      p.append(el("strong", null, label), document.createTextNode(text));
      box.append(p);
    };
    if (data.current_round) box.append(el("p", "plan-round", fmt(T.round, { round: data.current_round })));
    if (analysis) line("task-analysis", T.task_analysis, analysis);
    if (plan) line("execution-plan", T.execution_plan, plan);
    return box;
  }

  // The steps of a finished run, from its audit (for turns loaded with the page), after its last plan.
  function renderSteps(box, response, T) {
    const steps = (response.audit && response.audit.steps) || [];
    const outline = planOutline(response, T);
    if (!steps.length && !outline) return;
    const details = el("details", "steps");
    details.append(el("summary", null, T.steps + " (" + steps.length + ")"));
    if (outline) details.append(outline);
    const list = el("ol", "timeline");
    steps.forEach((s) => list.append(el("li", "step step-tool " + (s.status === "ok" ? "ok" : "bad"), stepText(s, T))));
    details.append(list);
    box.append(details);
  }

  // "Step 2 · run_query · 5 rows · 12 ms": the number is the one a traced number's provenance cites.
  function stepLabel(s, T) {
    return typeof s.step === "number" ? fmt(T.step_label, { step: s.step }) + " · " : "";
  }

  function stepText(s, T) {
    if (s.status !== "ok" && s.status !== undefined) {
      return stepLabel(s, T) + s.tool + " · " + T.tool_error + (s.error ? ": " + s.error : "");
    }
    const parts = [stepLabel(s, T) + s.tool, fmt(s.rows === 1 ? T.row : T.rows, { rows: s.rows || 0 })];
    if (typeof s.latency_ms === "number") {
      const ms = s.latency_ms < 10 ? s.latency_ms.toFixed(1) : Math.round(s.latency_ms);
      parts.push(fmt(T.latency, { ms }));
    }
    return parts.join(" · ");
  }

  // options: {T, onAsk (null: read only), withSteps}
  function renderResponse(box, response, options) {
    const T = options.T;
    box.textContent = "";
    box.dataset.status = response.status || "";
    delete box.dataset.clarification;
    if (options.withSteps) renderSteps(box, response, T);
    if (response.status === "answered" && response.clarification) {
      box.dataset.clarification = "true";
      renderClarification(box, response.clarification, options.onAsk, T);
      return;
    }
    const cells = new Map();
    const tables = (response.tables || []).map((t) => renderTable(t, cells, T));
    if (response.status === "answered") {
      renderAnswer(box, response, cells, response.tables || [], T);
      renderChecks(box, response.verification, T);
      renderExplanation(box, response.explanation, T);
    } else renderError(box, response, T);
    renderCharts(box, response.charts, T);
    tables.forEach((t) => box.append(t));
    renderDownloads(box, response.download_links, T);
    renderChips(box, response.recommended_questions, options.onAsk, T);
  }

  window.addEventListener("resize", () => charts.forEach((c) => c.resize()));
  window.ChatRender = { el, fmt, renderResponse, stepText, stepLabel, locateGrounding, planOutline };
})();
