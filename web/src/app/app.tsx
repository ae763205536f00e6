/** The web app's root; the subscriptions, the publish dialog and the account pages hang below it. */
export function App() {
  return <h1>Tocsin</h1>;
}
