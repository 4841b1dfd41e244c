// "Your devices": every session of the signed-in person, this one marked; end one, or every other.
import { listSessions } from "../../../auth";
import { readableTime } from "../../../../shared/time";
import { endOtherSessions, endSession } from "../../actions";

export const dynamic = "force-dynamic";

export default async function DevicesPage() {
  const sessions = (await listSessions()) ?? [];
  const others = sessions.filter((session) => !session.current);
  return (
    <>
      <h1>Your devices</h1>
      <p className="muted">Every browser signed in as you. End one you do not recognise; it is signed out on its next request.</p>
      <ul className="stack" id="devices" style={{ listStyle: "none", paddingLeft: 0 }}>
        {sessions.map((session) => (
          <li key={session.id} className="card" data-session-id={session.id} data-current={session.current ? "true" : undefined}>
            <h2>
              {session.device ?? "Unknown device"}
              {session.current ? " (this device)" : ""}
            </h2>
            <dl>
              <dt>Signed in with</dt>
              <dd>{session.signInMethod ?? "—"}</dd>
              <dt>Signed in</dt>
              <dd>{session.createdAt ? <time dateTime={session.createdAt}>{readableTime(session.createdAt)}</time> : "—"}</dd>
              <dt>Last seen</dt>
              <dd>{session.lastSeenAt ? <time dateTime={session.lastSeenAt}>{readableTime(session.lastSeenAt)}</time> : "—"}</dd>
              <dt>Address</dt>
              <dd>{session.clientAddress ?? "—"}</dd>
            </dl>
            {session.current ? null : (
              <form action={endSession}>
                <input type="hidden" name="sessionId" value={session.id} />
                <button type="submit">End this session</button>
              </form>
            )}
          </li>
        ))}
      </ul>
      {others.length > 0 ? (
        <form action={endOtherSessions}>
          <button type="submit" id="end-others">
            Sign out everywhere else ({others.length})
          </button>
        </form>
      ) : null}
    </>
  );
}
