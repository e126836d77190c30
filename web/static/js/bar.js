// The bartender app: the live order queue builds on this page.
import { startPage } from "./page.js";

startPage("bartender", "admin");
