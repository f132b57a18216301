export default function Home() {
  return <p>A bare React Router route.</p>;
}
