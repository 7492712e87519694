// The static list (toolscale view --html): filters from the page's query string, run here on
// the rows the page holds, with the same counts the server computes.
(function () {
  const query = new URLSearchParams(location.search);
  const names = [...document.querySelectorAll("[data-facet-name]")].map(
    (e) => e.getAttribute("data-facet-name"));
  const chosen = {};
  for (const name of names) { if (query.get(name)) chosen[name] = query.get(name); }
  const rows = [...document.querySelectorAll("tr[data-row]")];
  const keeps = (row, skip) => Object.entries(chosen).every(
    ([name, value]) => name === skip || row.getAttribute("data-f-" + name) === value);
  const tasks = new Set();
  let shown = 0;
  for (const row of rows) {
    row.hidden = !keeps(row, null);
    if (!row.hidden) { shown += 1; tasks.add(row.getAttribute("data-task")); }
  }
  document.getElementById("total").textContent = shown;
  document.getElementById("tasks").textContent = tasks.size;
  if (chosen.domain) {  // the chosen domain's templates, unfolded
    for (const summary of document.querySelectorAll("details.group > summary")) {
      if (summary.firstChild.textContent.trim() === chosen.domain) {
        summary.parentElement.open = true;
        summary.parentElement.parentElement.open = true;
      }
    }
  }
  document.getElementById("chosen").textContent = Object.entries(chosen).map(
    ([name, value]) => " · " + name + " = " + value).join("");
  for (const link of document.querySelectorAll("a[data-facet]")) {
    const name = link.getAttribute("data-facet"), value = link.getAttribute("data-value");
    let count = 0;
    for (const row of rows) {
      if (row.getAttribute("data-f-" + name) === value && keeps(row, name)) count += 1;
    }
    link.querySelector(".n").textContent = count;
    const next = new URLSearchParams(chosen);
    if (chosen[name] === value) next.delete(name); else next.set(name, value);
    link.href = "index.html" + (next.toString() ? "?" + next.toString() : "");
    link.classList.toggle("on", chosen[name] === value);
    // A chosen value in a folded filter (templates by domain) is shown, its folds opened.
    for (let d = link.closest("details"); d && chosen[name] === value; d = d.parentElement.closest("details")) {
      d.open = true;
    }
    link.classList.toggle("zero", count === 0 && chosen[name] !== value);
  }
})();
