// The Luhn check every card number carries: the card import validates with it, and the test cards
// of the sandbox, the test suite and the bench complete their numbers with it. It imports nothing,
// so node-side scripts can load it as it is.

/**
 * The Luhn sum of `digits`: counted from the right, every other digit starting with the second is
 * doubled (less 9 when that passes 9).
 */
function luhnSum(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum;
}

/** Whether a digit string passes the Luhn check. */
export function luhnValid(digits: string): boolean {
  return luhnSum(digits) % 10 === 0;
}

/** The Luhn check digit that completes `digits`. */
export function luhnCheckDigit(digits: string): string {
  // With a 0 in the check digit's place the other digits keep their parity; the check digit is
  // what brings that sum to a multiple of ten.
  return String((10 - (luhnSum(`${digits}0`) % 10)) % 10);
}
