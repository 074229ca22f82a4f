"""Noise filter: chit-chat, acknowledgements and boilerplate that are never worth remembering.

Every pattern is anchored on the whole normalised message, so a message that merely *starts*
with "ok" or "thanks" but carries content ("Thanks, I moved to Berlin") is never noise.
"""

from __future__ import annotations

import re

__all__ = ["is_noise"]

# Short phrases that may be chained ("ok thanks", "hi there, are you there?").
_PHRASES = (
    # greetings and farewells
    r"hi|hello|hey|hiya|howdy|yo|greetings|hi there|hello there|hey there|hey you"
    r"|good (?:morning|afternoon|evening|night|day)|morning|evening"
    r"|how are you(?: doing)?(?: today)?|how's it going|what's up|sup|nice to meet you"
    r"|bye|goodbye|bye bye|see you(?: later| soon)?|see ya|take care|cheers"
    r"|(?:hi|hello|hey) (?:all|everyone|guys|folks|friend|again)"
    # acknowledgements
    r"|ok|okay|k|kk|okie|alright|all right|right|fine|sure|sure thing|of course|yes|yeah|yep|yup"
    r"|no|nope|nah|maybe|thanks|thank you|thanks a lot|thanks so much|thank you so much"
    r"|thank you very much|many thanks|thx|ty|tysm|got it|gotcha|understood|noted|i see|makes sense"
    r"|sounds good|sounds great|that's great|great|cool|nice|perfect|awesome|excellent|wonderful"
    r"|lol|lmao|haha+|hehe+|wow|oh|ah|hmm+|uh huh|no problem|np|no worries|you're welcome"
    r"|will do|exactly|indeed|agreed|fair enough|good|very good|that works|that's fine|that helps"
    # meta-questions about the conversation or the assistant
    r"|what did you (?:just )?(?:say|mean)|what do you mean|what did i (?:just )?(?:say|ask)"
    r"|(?:can|could|would) you (?:please )?(?:repeat|say) (?:that|it)(?: again)?(?: please)?"
    r"|say that again|come again|pardon|sorry|what|huh|are you (?:still )?there|you there"
    r"|who are you|what are you|what is your name|what's your name|what can you do"
    r"|are you (?:a bot|a robot|an ai|human|real)|what were we (?:talking about|discussing)"
)
_CHAINED = re.compile(rf"(?:{_PHRASES})(?: (?:{_PHRASES}))*")

# Assistant boilerplate: a characteristic opening makes the whole message noise.
_BOILERPLATE = re.compile(
    r"(?:i'm|i am) (?:really |so |very )?sorry(?: but)? i (?:can't|cannot|can not|won't|am unable to"
    r"|am not able to)\b.*"
    r"|as an ai (?:language model|assistant|model|developed|created|trained)\b.*|as an ai(?: i\b.*)?"
    r"|i(?:'m| am) (?:just )?an ai\b.*"
    r"|i (?:don't|do not) have (?:access to|the ability to|personal (?:opinions|experiences|feelings))\b.*"
    r"|(?:how|what) (?:can|may) i (?:help|assist|do for) you\b.*"
    r"|is there anything else\b.*|let me know if (?:you|there)\b.*"
)

_MAX_CHIT_CHAT_CHARS = 120
_NON_WORD = re.compile(r"[^\w']+")


def _normalise(text: str) -> str:
    """Lowercase, straighten apostrophes, turn punctuation runs into single spaces."""
    lowered = text.strip().lower().replace("’", "'").replace("‘", "'")
    return _NON_WORD.sub(" ", lowered).strip(" '")


def is_noise(text: str, *, min_chars: int = 5) -> bool:
    """Whether a message (or sentence) carries nothing worth remembering.

    Greetings, acknowledgements, refusals, assistant boilerplate, questions about the
    conversation itself, and anything shorter than ``min_chars`` once stripped are noise.

    >>> is_noise("Thanks!"), is_noise("Thanks, I moved to Berlin last month")
    (True, False)
    """
    if len(text.strip()) < min_chars:
        return True
    normalised = _normalise(text)
    if not normalised:
        return True
    if _BOILERPLATE.fullmatch(normalised):
        return True
    # Chit-chat is short; the cap also bounds backtracking over ambiguous chains ("good morning").
    return len(normalised) <= _MAX_CHIT_CHAT_CHARS and _CHAINED.fullmatch(normalised) is not None
