// A partner's card product, addressed by its merchant key.

export interface Product {
  merchantKey: string;
  name: string;
}
