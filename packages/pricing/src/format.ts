// One way to write an amount, wherever a person reads it (pages, messages, notifications, the CLI), and the same
// in a customer's front end that imports this package: "KES 1,500", as Kenyan prices are written.
const wholeShillings = new Intl.NumberFormat('en-KE', { maximumFractionDigits: 0 });

/** `KES 1,500`: a whole-KES amount as people read it. */
export function formatKes(amount: number): string {
  return `KES ${wholeShillings.format(amount)}`;
}
