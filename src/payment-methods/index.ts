// Payment methods: the programme's cards.
export { cardOfCustomerQuery } from "./card-of-customer";
export { paymentMethods } from "./schema";
