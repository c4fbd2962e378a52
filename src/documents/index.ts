// Statement documents: PDFs uploaded, rendered and served by signed link; the operator's and
// the dashboard's document settings; the render queue's consumer and maintenance step.
export { documentsPage } from "./documents-page";
export { rendersResent } from "./maintenance";
export { documentOperatorRoutes } from "./operator-routes";
export { enqueueRenders, RENDER_QUEUE, renderConsumer } from "./render-queue";
export {
  type RenderRef,
  renderRefsOf,
  renderRequestWrites,
  requestRender,
} from "./render-store";
export { fileRoutes } from "./routes";
