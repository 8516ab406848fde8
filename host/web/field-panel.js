// The editor's side panel: the form that edits the selected field (key, type, label,
// required, options), or a hint of what to do while no field is selected.

import { FIELD_TYPES, isChoosing, parseOptions } from "./model.js";
import { h } from "./view.js";

/**
 * The field panel: a form with key, type, label, required and options (shown only for
 * types that choose), Apply and Delete field. It keeps its column while no field is
 * selected (a hint shows instead), so the pages never rescale under the pointer.
 */
export class FieldPanel {
  constructor({ onApply, onDelete, kind = "pdf" }) {
    const id = (n) => `qe-field-${n}`;
    const inputs = (this.inputs = {
      // No maxlength on key or label: a browser counts it in UTF-16 units, the server's
      // rules in characters; Apply names a key or label that is too long.
      key: h("input", { id: id("key"), name: "key", type: "text", autocomplete: "off", spellcheck: "false", required: true, "aria-describedby": id("error") }),
      type: h("select", { id: id("type"), name: "type" }, ...FIELD_TYPES.map((t) => h("option", { value: t, text: t }))),
      label: h("input", { id: id("label"), name: "label", type: "text" }),
      required: h("input", { id: id("required"), name: "required", type: "checkbox" }),
      options: h("textarea", { id: id("options"), name: "options", rows: 4, placeholder: "Yes\nNo" }),
    });
    const row = (label, input) => h("div", { class: "qe-row" }, h("label", { for: input.id, text: label }), input);
    this.optionsRow = row("Options (one per line)", inputs.options);
    this.error = h("p", { id: id("error"), class: "qe-form-error", "aria-live": "polite" });
    this.title = h("h2", { id: id("title"), class: "qe-panel-title", text: "Field" });
    const del = h("button", { type: "button", class: "qe-button qe-danger", text: "Delete field" });
    this.form = h(
      "form",
      { class: "qe-field-form", novalidate: true, hidden: true, "aria-labelledby": id("title") },
      this.title,
      row("Key", inputs.key),
      row("Type", inputs.type),
      row("Label", inputs.label),
      h("div", { class: "qe-row qe-check" }, inputs.required, h("label", { for: inputs.required.id, text: "Required" })),
      this.optionsRow,
      this.error,
      h("div", { class: "qe-actions" }, h("button", { type: "submit", class: "qe-button qe-primary", text: "Apply" }), del),
    );
    this.form.addEventListener("submit", (e) => {
      e.preventDefault();
      onApply();
    });
    inputs.type.addEventListener("change", () => {
      this.optionsRow.hidden = !isChoosing(inputs.type.value);
    });
    del.addEventListener("click", () => onDelete());
    // What the panel says before anything is selected: a diagram is edited through its
    // nodes, a paged document through its fields.
    const hint =
      kind === "diagram"
        ? "Select a node to move, resize or delete it; double-click it to change its text. Add node and Connect draw new ones."
        : "Select a field to edit it, or press Add field and drag a box on a page.";
    this.hint = h("p", { class: "qe-panel-hint", text: hint });
    this.el = h("aside", { class: "qe-panel", "aria-label": "Field" }, this.hint, this.form);
  }

  /** Fills the form from `field`, or shows the hint when null. */
  show(field) {
    this.form.hidden = !field;
    this.hint.hidden = !!field;
    if (!field) return;
    const i = this.inputs;
    this.title.textContent = `Field on page ${field.page}`;
    i.key.value = field.key;
    i.type.value = field.type;
    i.label.value = field.label || "";
    i.required.checked = !!field.required;
    i.options.value = (field.options || []).join("\n");
    this.optionsRow.hidden = !isChoosing(field.type);
    this.showError("");
  }

  values() {
    const i = this.inputs;
    return {
      key: i.key.value.trim(),
      type: i.type.value,
      label: i.label.value,
      required: i.required.checked,
      options: parseOptions(i.options.value),
    };
  }

  showError(problem) {
    this.error.textContent = problem;
    if (problem && /key/i.test(problem)) this.inputs.key.setAttribute("aria-invalid", "true");
    else this.inputs.key.removeAttribute("aria-invalid");
  }

  focusKey() {
    this.inputs.key.focus();
    this.inputs.key.select();
  }
}
