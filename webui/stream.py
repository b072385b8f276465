"""Server-Sent Events: live updates; browsers reconnect by themselves with Last-Event-ID."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, request, stream_with_context

from webui.context import table

bp = Blueprint("stream", __name__)


@bp.get("/api/stream")
def stream() -> Response:
    hub = table().hub
    header = request.headers.get("Last-Event-ID") or request.args.get("last_event_id")
    try:
        last_id = int(header) if header else hub.last_id
    except ValueError:
        last_id = hub.last_id
    heartbeat = float(current_app.config["SSE_HEARTBEAT_S"])

    def events():
        yield "retry: 1000\n\n"
        for message in hub.listen(last_id, heartbeat):
            yield ": keep-alive\n\n" if message is None else message.to_sse()

    return Response(
        stream_with_context(events()),
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )
