"""The echo mode's behaviour: each persona, in seat order, says one turn (the model echoes the
question back in the persona's name), and the results count the echoes.

A mode from the test tree, the worked example of docs/architecture.md ("How to add a mode"): it
uses only the run loop's hooks (``phases``, ``results``) and ``write`` from orchestration.speaking,
and draws only the shared panels.
"""

from __future__ import annotations

from debates.models import Message
from orchestration.modes.base import Mode
from orchestration.speaking import write

ECHO_ROLE = "echo"  # its own model role, registered by its spec row


class EchoMode(Mode):
    name = "echo"

    def phases(self):
        return [self._echoes]

    def _echoes(self) -> None:
        done = set(self.run.main_messages().filter(status=Message.Status.COMPLETE).values_list("turn", flat=True))
        self.run.phase("echoing")
        for speaker in self.run.speakers:
            turn = speaker.seat + 1
            if turn in done:
                continue  # said before a resume
            self.run.check_stop()
            write(
                debate=self.run.debate,
                speaker=speaker,
                kind=Message.Kind.OPENING,
                turn=turn,
                content=f"{speaker.name} on: {self.run.debate.topic}",
                system_prefix="Say back what you are given.",
                role=ECHO_ROLE,
                phase="echo",
            )

    def results(self, status: str) -> dict:
        said = self.run.main_messages().filter(status=Message.Status.COMPLETE)
        return {"mode": self.name, "status": status, "echoes": said.count()}
