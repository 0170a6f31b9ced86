"""The echo mode's behaviour: each persona, in seat order, says one turn (the model echoes the
question back in the persona's name), and the results count the echoes.

A mode from the test tree, the worked example of docs/architecture.md ("How to add a mode"): it
uses only the run loop's hooks (``phases``, ``results``) and asks the loop for each turn with a
TurnRequest (``run.turn``: a finished turn is not said again after a resume), and draws only the
shared panels.
"""

from __future__ import annotations

from debates.models import Message
from orchestration.modes.base import Mode
from orchestration.speaking import TurnRequest

ECHO_ROLE = "echo"  # its own model role, registered by its spec row


class EchoMode(Mode):
    name = "echo"

    def phases(self):
        return [self._echoes]

    def _echoes(self) -> None:
        self.run.phase("echoing")
        for speaker in self.run.speakers:
            self.run.turn(
                TurnRequest(
                    speaker,
                    Message.Kind.OPENING,
                    phase="echo",
                    context=f"{speaker.name} on: {self.run.debate.topic}",
                    turn=speaker.seat + 1,
                    role=ECHO_ROLE,
                    system_prefix="Say back what you are given.",
                    long_form=True,
                )
            )

    def results(self, status: str) -> dict:
        said = self.run.main_messages().filter(status=Message.Status.COMPLETE)
        return {"mode": self.name, "status": status, "echoes": said.count()}
