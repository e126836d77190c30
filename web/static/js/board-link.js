// The bar's "Pick-up board" button: makes a link for the TV or tablet by the bar
// (/board), lists the links made, and revokes one (docs/PUSH.md, "Pick-up board").
import { api } from "./api.js";
import { t } from "./i18n.js";

const button = document.getElementById("board-links");
const dialog = document.getElementById("board-dialog");

function row(b) {
  const li = document.createElement("li");
  li.textContent = `${t("board.madeBy", { name: b.name, by: b.createdBy })} `;
  const revoke = document.createElement("button");
  revoke.type = "button";
  revoke.className = "quiet";
  revoke.textContent = t("board.revoke");
  revoke.addEventListener("click", async () => {
    await api("DELETE", `/api/bar/boards/${encodeURIComponent(b.id)}`);
    li.remove();
  });
  li.append(revoke);
  return li;
}

async function refresh() {
  const { boards } = await api("GET", "/api/bar/boards");
  document.getElementById("board-list").replaceChildren(...boards.map(row));
}

if (button && dialog) {
  button.addEventListener("click", async () => {
    document.getElementById("board-new").hidden = true;
    dialog.showModal();
    refresh().catch((err) => { document.getElementById("board-status").textContent = err.message; });
  });
  document.getElementById("board-make").addEventListener("click", async () => {
    const status = document.getElementById("board-status");
    try {
      const b = await api("POST", "/api/bar/boards", { name: document.getElementById("board-name-input").value.trim() });
      const link = document.getElementById("board-link");
      link.href = b.link;
      link.textContent = b.link;
      document.getElementById("board-new").hidden = false;
      status.textContent = t("board.linkMade");
      await refresh();
    } catch (err) {
      status.textContent = err.message;
    }
  });
}
