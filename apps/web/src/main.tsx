// Entry point: CoreUI's stylesheet, SimpleBar's, ours, then the app.
import "@coreui/coreui/dist/css/coreui.min.css";
import "simplebar-react/dist/simplebar.min.css";
import "./styles/app.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/App";

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root");
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
