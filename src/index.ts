// The Worker: the service wired (src/create-app.ts) with its version bundle (versions/index.ts).
import { bundle } from "../versions";
import { createApp } from "./create-app";

export default createApp(bundle);
