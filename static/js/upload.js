// Upload page: send the file with a progress bar, pick sheets, then follow each ingest to the end.
(function () {
  "use strict";
  const form = document.getElementById("upload-form");
  if (!form) return;
  const T = JSON.parse(document.getElementById("upload-strings").textContent);
  const csrf = form.querySelector("input[name=csrfmiddlewaretoken]").value;
  const errorBox = document.getElementById("upload-error");
  const area = document.getElementById("progress-area");
  const picker = document.getElementById("sheet-picker");

  function progressRow(label) {
    const row = document.createElement("div");
    row.className = "progress-row";
    const name = document.createElement("span");
    name.textContent = label;
    const bar = document.createElement("progress");
    bar.max = 100;
    bar.value = 0;
    const status = document.createElement("span");
    status.className = "progress-status";
    row.append(name, bar, status);
    area.append(row);
    return { row, bar, status };
  }

  function showError(message) {
    errorBox.textContent = message || "";
  }

  function uploadFile(file, ui) {
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open("POST", form.dataset.uploadsUrl);
      xhr.setRequestHeader("X-CSRFToken", csrf);
      xhr.upload.onprogress = (e) => {
        if (e.lengthComputable) ui.bar.value = Math.round((e.loaded / e.total) * 100);
      };
      xhr.onload = () => {
        const body = JSON.parse(xhr.responseText || "{}");
        if (xhr.status >= 200 && xhr.status < 300) resolve(body);
        else reject(new Error(body.message || xhr.statusText));
      };
      xhr.onerror = () => reject(new Error(T.network_error));
      ui.status.textContent = T.uploading;
      const data = new FormData();
      data.append("file", file);
      xhr.send(data);
    });
  }

  async function createDataset(upload, sheet, name) {
    const ui = progressRow(sheet ? upload.name + " · " + sheet : upload.name);
    ui.status.textContent = T.ingesting;
    const payload = { upload: upload.id, header_row: Number(document.getElementById("header-row").value || 1) };
    if (sheet) payload.sheet = sheet;
    if (name) payload.name = upload.sheets.length > 1 && sheet ? name + " - " + sheet : name;
    const resp = await fetch(form.dataset.datasetsUrl, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
      body: JSON.stringify(payload),
    });
    const body = await resp.json();
    if (!resp.ok) {
      ui.status.textContent = T.failed + ": " + (body.message || resp.statusText);
      ui.row.classList.add("failed");
      return;
    }
    await follow(body, ui);
  }

  async function follow(dataset, ui) {
    let version = dataset.ingest;
    while (version.status === "pending" || version.status === "ingesting") {
      ui.bar.value = Math.round(version.progress * 100);
      await new Promise((r) => setTimeout(r, 700));
      const resp = await fetch("/api/v1/datasets/" + dataset.id + "/versions/" + version.number + "/");
      version = await resp.json();
    }
    if (version.status === "ready") {
      ui.bar.value = 100;
      ui.status.innerHTML = "";
      const link = document.createElement("a");
      link.href = "/datasets/" + dataset.id + "/";
      link.textContent = T.ready + " · " + T.open + " " + dataset.name;
      ui.status.append(link);
      ui.row.classList.add("ready");
    } else {
      ui.status.textContent = T.failed + ": " + (version.error ? version.error.message : "");
      ui.row.classList.add("failed");
    }
  }

  function pickSheets(upload, name) {
    picker.hidden = false;
    picker.innerHTML = "";
    const intro = document.createElement("p");
    intro.textContent = T.choose_sheets;
    picker.append(intro);
    upload.sheets.forEach((sheet, i) => {
      const label = document.createElement("label");
      const box = document.createElement("input");
      box.type = "checkbox";
      box.value = sheet;
      box.checked = i === 0;
      label.append(box, " " + sheet);
      picker.append(label);
    });
    const go = document.createElement("button");
    go.type = "button";
    go.id = "import-sheets";
    go.textContent = T.import;
    go.onclick = async () => {
      const chosen = [...picker.querySelectorAll("input:checked")].map((b) => b.value);
      if (!chosen.length) return showError(T.pick_sheet);
      showError("");
      picker.hidden = true;
      for (const sheet of chosen) await createDataset(upload, sheet, name);
    };
    picker.append(go);
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    showError("");
    const file = document.getElementById("file").files[0];
    if (!file) return showError(T.pick_file);
    const name = document.getElementById("dataset-name").value.trim();
    const ui = progressRow(file.name);
    try {
      const upload = await uploadFile(file, ui);
      ui.row.remove();
      if (upload.format !== "csv" && upload.sheets.length > 1) pickSheets(upload, name);
      else await createDataset(upload, upload.format === "csv" ? null : upload.sheets[0], name);
    } catch (err) {
      ui.status.textContent = T.failed;
      showError(err.message);
    }
  });
})();
