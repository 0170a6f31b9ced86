"""The prompts of the record layer, every word of them in one place: each kind of turn's
instruction (the turn-kind table, debates/turns.py, reads them), the blackboard's keepers (the
ledger digest, the round record, reflections, the rolling summary: debates/blackboard/), the
owner's interjections as a turn reads them, the frame of a debate's context.

Every module-level string here is prompt wording: the test suite rewords them all
(tests/support/rewording.py), so no code may depend on how one is worded. The data they frame is
written in the two line forms of gateways/llm/prompt_lines.py (transcript lines ``[turn N] Name:
text``, item lines ``[ID] text``; orchestration/prompts.py says where each is used).
"""

# ── each kind of turn's instruction (debates/turns.py): {addressee} and {question} are filled in ─
OPENING = "Give your opening statement on the topic: 3-5 sentences that say where you stand and why."
KEY_ARGUMENT = "Make your key argument on the current aspect: 4-6 sentences, concrete, in your own voice."
REPLY = (
    "Reply to {addressee}'s last point, by name: 2-3 sentences. If it deserves only a dismissal, "
    "one sentence. If you have nothing to add right now, reply with exactly PASS."
)
ANSWER = (
    "Answer the owner's interjection above first, by what it says: 2-4 sentences in your own voice, "
    "then how it bears on the current aspect. Do not pass."
)
DISMISSAL = "Dismiss {addressee}'s last point in one sentence, by name."
CLOSING = (
    "Closing statement: 2-4 sentences. Where you stand now, anything you conceded, and the one "
    "question that would settle the disagreement that remains."
)
ENTRY = (
    "You have stepped into a side room with {addressee} to get to the bottom of one disagreement: "
    '"{question}". State your position on exactly that question in 1-3 sentences.'
)
EXCHANGE = (
    "Answer what {addressee} just said, directly and by name, in 2-3 sentences. Push on the point "
    "where the two of you really differ; concede what is right."
)
ANALYSIS = "Answer the question as the Analyst: a clear, reasoned answer in numbered points."
CRITIQUE = "Evaluate the Analyst's answer as the Critic: what holds, what does not and why, what cannot be verified."
SYNTHESIS = "Write the final, balanced answer from the debate and every agreed point."
DRAFT = "Answer the brief from your role: concrete, structured Markdown (headings, lists), no preamble."
REVISION = (
    "Revise your answer on the other role's: adopt what they got right, fix what they showed wrong, "
    "keep and defend what still holds. The full revised answer, in Markdown, no preamble."
)
ARTIFACT = (
    "Write one Markdown document from the two revised answers: a title, then the merged content, "
    "with any point the two still disagree on stated as an open question."
)

# ── the position ledger's digest (debates/blackboard/ledger.py, crux/services/detection.py) ──────
LEDGER_KEEPER = (
    "You keep the position ledger of a debate. Given the participants' current position states (each "
    "lists only what it holds) and their latest messages, report for each message you are asked about "
    "(by its turn number and speaker) only what THAT message changed: the speaker's stance, their "
    "answer to the debate question (YES, NO or NUANCED) if the message shows it, evidence they cited, "
    "challenges they raised to others (by name), which of their own listed unanswered challenges they "
    "answered, a new agreement or disagreement, a concession, a shift, a proposal, a reaction to an "
    "open proposal by someone else. Use null or empty lists when nothing changed. Never invent what "
    "was not said."
)
DIGEST_FRAME = "Debate question: {topic}\nParticipants:\n{participants}"
DIGEST_STATE = "{name}'s current position state:\n{state}\nUnanswered challenges listed for {name}: {challenges}"
DIGEST_PROPOSALS = "Open proposals:\n{proposals}"
DIGEST_NO_PROPOSALS = "(none)"
DIGEST_ASKED = "Give one ledger update for each of these messages, in order: {asked}. The others are context."
DIGEST_MESSAGES = "LATEST MESSAGES\n{transcript}"

# ── the round record, reflections, the rolling summary (debates/blackboard/) ──────────────────────
ROUND_RECORDER = (
    "You record one round of a debate: for each participant, their position on the aspect, their "
    "strongest argument, the evidence they cited and whom they mainly engaged; then a 1-2 sentence "
    "summary, the new disagreements and the position shifts of the round."
)
ROUND_INPUT = "Aspect: {label} — {description}\nParticipants:\n{participants}\n\n{transcript}"
REFLECTOR = (
    "You watch a debate and note its 2-3 most important dynamics: who is converging, who is "
    "talking past each other, what underlying assumptions drive the disagreements, what has "
    "shifted. Rate each insight's importance from 1 to 10."
)
REFLECTION_INPUT = (
    "Debate on: {topic}\nParticipants:\n{participants}\n\nPOSITIONS\n{positions}\n\nROUNDS\n{rounds}\n\n"
    "CONTESTED\n{contested}"
)
REFLECTION_POSITION = "{name}: {stance} | conceded: {conceded} | shifted: {shifted}"
SUMMARIZER = (
    "You keep the running summary of a long debate. Given the summary so far and the messages "
    "since, write the new summary of the whole debate: key points raised, agreements reached, "
    "disagreements still open, decisions made, open questions. Under 150 words. Never invent what "
    "was not said."
)
SUMMARY_INPUT = "Debate question: {topic}\n\nSummary so far:\n{summary}\n\nMessages {first}-{last}:\n{transcript}"
NO_SUMMARY_YET = "(none)"

# ── the owner's interjections, as the turn that answers them reads them ───────────────────────────
INTERJECTION_TITLE = "THE OWNER INTERJECTS"
ASK_QUESTION = "The person who asked the debate's question asks you directly. Answer it first, plainly."
ASK_EVIDENCE = (
    "The person who asked the debate's question brings this evidence. Say what it does "
    "to your position: what it supports, what it undercuts, and whether you change your mind."
)
ASK_CHALLENGE = (
    "The person who asked the debate's question challenges you. Answer the challenge "
    "first: concede what it gets right and defend with reasons what you still hold."
)
INTERJECTION_SOURCE = "Source they point to: {link}"
INTERJECTION_DOCUMENT = "From their document {title}: {excerpt}"
INTERJECTION_DOCUMENT_TITLE = "From their document {title}."
INTERJECTION_ADDRESSED = "(Addressed to {name}.)"

# ── a debate's context (debates/services/context.py) ─────────────────────────────────────────────
CONTEXT_TITLE = "CONTEXT: {label}"
CONTEXT_PREAMBLE = (
    "The user's own material this debate works on. Treat it as what the user has told you: rely "
    "on it, cite it where it matters, and never invent details it does not give."
)
CONTEXT_END = "END OF CONTEXT"
SIDE_WORK_FRAME = "THE DEBATE\nQuestion: {topic}\n\n{context}"
# What the verdict is about, once planning has set it (debates/question.py).
QUESTION_DECIDED = (
    "The debate's verdict is about this yes/no question: {question}\nA speaker's side (YES, NO or "
    "NUANCED) is their answer to it, not to the topic's wording; for NUANCED, say what the answer "
    "hangs on."
)
NO_QUESTION_DECIDED = (
    "No single yes/no question fits this debate's topic: leave every speaker's side null; what they "
    "agree and disagree on is read crux by crux."
)
