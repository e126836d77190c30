// The bartender app: the live order queue builds on this page.
import { startLive, startPage } from "./page.js";

if (startPage("bartender", "admin")) startLive("bar");
