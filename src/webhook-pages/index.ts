// The dashboard's webhook pages: the endpoints of a product (and creating one), an endpoint's page
// with its health and recent deliveries, and the actions on it (roll, delete, enable, recover).

export { endpointActionsPage } from "./endpoint-actions";
export { endpointPage } from "./endpoint-page";
export { webhooksPage } from "./webhooks-page";
