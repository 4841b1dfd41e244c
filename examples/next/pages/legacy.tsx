// A pages-router page: `auth(context)` in getServerSideProps.
import type { GetServerSideProps } from "next";
import type { Session } from "appauth";
import { auth } from "../auth";

interface Props {
  session: Session | null;
}

export const getServerSideProps: GetServerSideProps<Props> = async (context) => {
  const session = await auth(context);
  return { props: { session } };
};

export default function Legacy({ session }: Props) {
  return (
    <main style={{ fontFamily: "system-ui, sans-serif", maxWidth: 720, margin: "2rem auto", padding: "0 1rem" }}>
      <h1>Pages router</h1>
      <p>
        This page reads the session in <code>getServerSideProps</code> with <code>auth(context)</code>.
      </p>
      <pre id="legacy-session">{JSON.stringify(session, null, 2)}</pre>
      <p>
        <a href="/">Home</a>
      </p>
    </main>
  );
}
