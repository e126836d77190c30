// The host's dashboard: guests, menu, settings and live stats build on this page.
import { startPage } from "./page.js";

startPage("admin");
