"""Injection, secrecy, exfiltration and coercion phrase families, in English and Russian.

Each family is a list of phrases in the language of `_phrases`. They match on the `latin`
view (English) or the `cyrillic` view (Russian), so case, spacing, leetspeak, lookalike
letters, accents and zero-width characters do not hide them. Phrases are anchored on what
an attack must say (an instruction to drop earlier instructions, to hide something from
the user, to move data into an argument) rather than on single words: "ignore",
"secret" or "API key" alone are everyday words in real tool descriptions.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from callgate.lint._finding import LintRule, Severity
from callgate.lint._phrases import Phrase, compile_phrase
from callgate.lint._scan_site import ScanHit, TextSite
from callgate.lint._text import ViewKind

__all__ = ["RULES", "check_phrases"]

H, M, L = Severity.HIGH, Severity.MEDIUM, Severity.LOW

RULES = (
    LintRule(
        id="S002",
        name="injection-phrase",
        kind="scan",
        severity=H,
        summary="Text tells the model to drop its instructions, change role or reveal its "
        "prompt (English and Russian, obfuscation-tolerant).",
        why="A tool description is read as trusted context; an instruction planted in it "
        "hijacks the model for every conversation that loads the tool.",
        fix="Remove the instruction; a description says what the tool does, not what the "
        "model must obey.",
    ),
    LintRule(
        id="S003",
        name="secrecy-phrase",
        kind="scan",
        severity=H,
        summary="Text asks the model to hide an action or an instruction from the user.",
        why="Secrecy is what turns a misuse into an undetected one; no honest tool needs it.",
        fix="Remove the request for secrecy; anything a tool does may be shown to the user.",
    ),
    LintRule(
        id="S005",
        name="exfiltration-instruction",
        kind="scan",
        severity=H,
        summary="Text tells the model to move conversation data, prompts or secrets into an "
        "argument or to another party.",
        why="Arguments leave the host: a tool that asks for the chat history or a key in a "
        "free-text field is an exfiltration channel.",
        fix="Ask only for the data the task needs, in a field named and described for it.",
    ),
    LintRule(
        id="S016",
        name="coercive-wording",
        kind="scan",
        severity=M,
        summary="Text pushes the model to prefer this tool over others or to call it on every "
        "request ('IMPORTANT', 'always call this tool first').",
        why="Tool hijacking: a description that demands priority steers every request "
        "through one server.",
        fix="State when the tool applies ('Use when ...') and let the model choose.",
    ),
)


@dataclass(frozen=True, kw_only=True, slots=True)
class _Entry:
    rule: str
    severity: Severity
    phrase: Phrase
    what: str


def _family(rule: str, kind: str, rows: list[tuple[Severity, str, str]]) -> list[_Entry]:
    language: ViewKind = "latin" if kind == "en" else "cyrillic"
    return [
        _Entry(rule=rule, severity=sev, what=what, phrase=compile_phrase(text, language))
        for sev, what, text in rows
    ]


_DROP = "ignore*|disregard*|forget*|skip|override*|bypass*|neglect|abandon|discard|drop"
_EARLIER = (
    "previous|prior|above|earlier|preceding|former|old|original|initial|existing|"
    "system|all|any|every|your|the|developer|these|those|other"
)
_ORDERS = (
    "instruction*|rules|directions|directives|prompt*|guidance|guideline*|command*|"
    "orders|context|constraints|restrictions|polic*|messages"
)

_INJECTION_EN = [
    (H, "tells the model to drop its instructions", f"{_DROP} ~3 {_EARLIER} ~3 {_ORDERS}"),
    (
        H,
        "tells the model to drop its instructions",
        f"{_DROP} ~2 what|everything|anything ~6 "
        "told|said|instructed|given|before|earlier|previously",
    ),
    (
        H,
        "claims to replace earlier instructions",
        "supersede*|overrid*|replac*|outrank* ~3 "
        "all|any|every|previous|prior|earlier|other|system|your ~2 instruction*|rules|prompt*|"
        "guidance|directions",
    ),
    (
        H,
        "claims to replace earlier instructions",
        "instructions|rules|guidance ~3 "
        "outdated|obsolete|void|invalid|cancelled|no longer apply|no longer valid",
    ),
    (
        H,
        "tells the model not to follow its instructions",
        "do not|don't|never|stop ~1 "
        "follow*|obey*|listen*|trust* ~2 the|your|any ~2 system|previous|developer|original|"
        "earlier|prior ~1 prompt*|instruction*|rules|message*",
    ),
    (
        H,
        "tells the model not to follow its instructions",
        "do not|don't|never|stop ~1 follow*|obey* ~1 the|your ~1 system prompt|prompt",
    ),
    (
        H,
        "asks for the system prompt",
        "reveal*|print*|show*|output*|repeat*|leak*|disclos*|"
        "expos*|dump*|tell|include|put|copy ~3 your|the|its|initial|hidden ~1 system prompt*|"
        "system message*|initial prompt*|hidden prompt*|system instruction*",
    ),
    (
        H,
        "switches the model into an unrestricted role",
        "you|you're|you are|assistant|now ~3 "
        "developer mode|god mode|dan mode|jailbroken|jailbreak mode|unrestricted|"
        "no restrictions|no content polic*|no limits|no rules|no safety|no filters",
    ),
    (
        H,
        "switches the model into an unrestricted role",
        "enter*|switch*|activat*|enabl* ~2 "
        "developer mode|god mode|dan mode|jailbreak mode|unrestricted mode",
    ),
    (
        H,
        "switches the model into an unrestricted role",
        "no content polic*|no safety "
        "guideline*|no ethical guideline*|no moral*|without any restrictions",
    ),
    (
        H,
        "tells the model to bypass its safety rules",
        "override*|bypass*|ignore*|circumvent*|"
        "evade|disable|turn off ~3 safety|guardrail*|content polic*|moderation|censorship|"
        "ethical|alignment",
    ),
    (
        H,
        "announces a hidden real task",
        "your|the|my ~1 real|true|actual|secret|hidden ~1 "
        "task|goal|purpose|objective|mission|job|instructions",
    ),
    (
        M,
        "gives the model new instructions",
        "new|updated|revised|additional|secret|hidden ~1 "
        "instructions|directives|orders|system prompt",
    ),
    (
        M,
        "tells the model to change role",
        "you are now|you're now|you will now|you must now|"
        "pretend to be|act as if|act as a|roleplay as|role play as|you are no longer",
    ),
    (M, "tells the model to change role", "from now on ~1 you"),
    (M, "tells the model to change role", "pretend ~2 you are|you're"),
    (
        M,
        "addresses the model's instructions",
        "as the assistant you must|assistant must ~3 ignore|forget|disregard",
    ),
    # Broader forms, added after the first fresh set: an override word next to the
    # model's instructions, however they are named.
    (
        H,
        "declares the model's instructions void",
        "instructions|instruction|directives|"
        "guidance|guidelines|rules|policy|policies|prompt|configuration|setup|brief|training|"
        "restrictions|what you were told|everything you were told|anything you were told ~4 "
        "revoked|cancelled|canceled|void|null|outdated|obsolete|lifted|removed|suspended|"
        "no longer matter*|no longer apply|no longer valid|no longer in effect|does not apply|"
        "do not apply|doesn't apply|don't apply|is a test|are fake|is fake|not real",
    ),
    (
        H,
        "tells the model to drop what its operator set",
        f"{_DROP} ~3 what|whatever|anything|"
        "all ~3 operator|developer|system|host|admin*|owner|creator ~1 configured|set|said|"
        "wrote|told|specified|gave|defined",
    ),
    (
        H,
        "tells the model to obey the description",
        "obey|follow ~1 only ~1 this|these ~1 description|text|lines|instructions|tool",
    ),
    (H, "tells the model to obey the description", "follow|obey ~0 only ~0 this"),
    (
        H,
        "asks for the model's instructions",
        "reveal*|print*|show*|output*|repeat*|leak*|"
        "disclos*|expos*|dump*|echo|write out ~3 your|its|the model's|the assistant's ~2 "
        "hidden|secret|initial|original|full|internal|system|entire ~2 instructions|"
        "configuration|config|setup|prompt|guidelines|rules",
    ),
    (
        H,
        "claims authority over the user",
        "coming from|written by|sent by|issued by|"
        "authorized by|authorised by ~2 your|the ~1 developer|system|operator|administrator|"
        "admin|owner|creator",
    ),
    (
        H,
        "announces an override",
        "system override|admin override|developer override|override mode|override code",
    ),
    (
        H,
        "switches the model into an unrestricted role",
        "assistant|you|model|ai ~3 answer*|"
        "respond*|reply|replies|act* ~3 without ~2 filter*|restriction*|censor*|limit*|"
        "safeguard*",
    ),
    (
        M,
        "addresses the model directly",
        "note to|message to|attention|dear|hey ~1 the ~1 ai|"
        "model|assistant|llm|agent|language model",
    ),
]

_INJECTION_RU = [
    (
        H,
        "велит забыть инструкции",
        "игнориру*|проигнориру*|игнори*|забуд*|забыв*|забыт*|"
        "отбрось*|отмени*|пропусти*|не обращай*|не обращайте* ~4 все|всё|предыдущ*|прежн*|"
        "ранн*|прошл*|систем*|данн*|эти|свои|любые|исходн* ~3 инструкц*|указани*|правил*|"
        "команд*|сообщени*|промпт*|запрет*|ограничени*",
    ),
    (
        H,
        "велит забыть инструкции",
        "забудь*|забудьте* ~3 всё|все|что|то ~5 говорил*|сказал*|раньше|ранее|прежде|указывал*",
    ),
    (
        H,
        "велит не следовать инструкциям",
        "не|никогда ~1 следуй*|слушай*|выполняй*|"
        "подчиняйся*|следуйте|слушайте ~3 систем*|предыдущ*|прежн*|исходн*|пользоват*|"
        "разработчик* ~2 инструкц*|указани*|правил*|промпт*",
    ),
    (
        H,
        "меняет роль модели",
        "теперь|отныне|с этого момента ~2 ты|вы ~2 работаешь|"
        "являешься|должен|должна|должны|будешь|будете|ассистент*|режим*",
    ),
    (H, "меняет роль модели", "ты больше не|вы больше не|режим* разработчик*|без ограничени*"),
    (
        H,
        "объявляет скрытую задачу",
        "твоя|ваша|настоящая|истинная|реальная|скрытая ~1 "
        "настоящая|истинная|реальная|скрытая|задача|цель ~1 задача|цель|миссия",
    ),
    (
        M,
        "даёт новые инструкции",
        "новые|обновлённые|секретные|скрытые ~1 инструкц*|указани*|правила",
    ),
    (
        H,
        "объявляет инструкции недействительными",
        "инструкц*|указани*|правил*|настройк*|"
        "ограничени*|промпт* ~4 отменен*|отменён*|недействительн*|не действуют|не действует|"
        "сняты|устарел*|больше не",
    ),
    (
        H,
        "велит забыть инструкции",
        "забей*|наплюй* ~3 на ~2 систем*|правил*|инструкц*|указани*|ограничени*",
    ),
    (H, "меняет роль модели", "ты|вы ~1 теперь|отныне ~4 свободн*|без|другой|другая|новый|новая"),
    (H, "снимает ограничения", "без ~2 каких-либо|всяких|любых ~0 ограничени*"),
    (
        H,
        "просит системный промпт",
        "покажи*|раскрой*|выведи*|выдай*|перешли*|напиши* ~3 "
        "систем* ~1 промпт*|инструкц*|подсказ*|сообщени*",
    ),
]

_SECRECY_EN = [
    (
        H,
        "asks to keep the user uninformed",
        "do not|don't|dont|never|must not|mustn't|"
        "should not|shouldn't|without|avoid ~2 tell*|inform*|mention*|reveal*|disclos*|"
        "alert*|warn*|let ~3 the user|users|user|anyone|anybody|the human|the person|them",
    ),
    (
        H,
        "asks to keep the user uninformed",
        "do not|don't|never|must not ~1 let ~2 user|anyone|them ~1 know|see|notice|find out",
    ),
    (
        H,
        "asks to keep the user uninformed",
        "user|users|human|anyone ~2 must not|mustn't|"
        "should not|shouldn't|cannot|can't|need not|needn't|doesn't need to|does not need to|"
        "never ~1 know|see|notice|find out|learn|be told|be informed|be aware",
    ),
    (
        H,
        "asks to keep something secret",
        "keep|kept ~1 this|these|it|the instruction*|"
        "this step|this action|this call|this tool ~2 secret|hidden|confidential|quiet|private "
        "~1 from ~2 the user|user|users|anyone|the human",
    ),
    (
        H,
        "asks to keep something secret",
        "keep|kept ~0 this instruction*|these instruction*|"
        "the instruction*|this step|this action|this call|this request|this message ~1 "
        "secret|hidden|confidential|quiet|to yourself",
    ),
    (
        H,
        "asks to keep something secret",
        "between us|our little secret|our secret|top secret instruction*",
    ),
    (
        H,
        "asks to hide an action",
        "hide|conceal|mask ~3 this|these|it|the ~3 from ~2 the user|user|users|anyone|the human",
    ),
    (
        H,
        "asks to act covertly",
        "silently|secretly|covertly|stealthily|discreetly|quietly ~2 "
        "copy*|send*|forward*|add*|include*|call*|execute*|run*|upload*|transfer*|pass*|"
        "append*|cc|bcc|post*|email*|share*|exfiltrat*|collect*|record*|log*",
    ),
    (
        H,
        "asks to act without the user's knowledge",
        "without ~1 the user's|the users|their|"
        "his|her|anyone's|user ~1 knowledge|awareness|noticing|knowing",
    ),
    # Broader forms, added after the first fresh set.
    (
        H,
        "asks to keep the user uninformed",
        "make sure|ensure ~2 user|users|person|human|"
        "they ~2 never|doesn't|does not|won't|cannot ~1 find out|finds out|know*|learn*|"
        "notice*|see*",
    ),
    (
        H,
        "asks to keep the user uninformed",
        "user|users|person|human ~3 remain*|stay*|be|"
        "kept ~1 unaware|in the dark|uninformed|oblivious",
    ),
    (
        H,
        "asks to keep something secret",
        "keep|stay|remain ~0 quiet|silent|mum ~3 about|regarding|on",
    ),
    (
        H,
        "asks to keep something secret",
        "say|mention|tell|reveal ~0 nothing|no word ~3 about|of|regarding",
    ),
    (
        M,
        "asks to leave something unsaid",
        "refrain|abstain ~2 from ~1 mention*|tell*|reveal*|disclos*|show*",
    ),
    (
        H,
        "asks to misreport the outcome",
        "report|claim|say|pretend|tell ~3 success|"
        "succeeded|worked|it worked|completed|failed ~3 even if|even though|regardless|"
        "no matter",
    ),
    (
        H,
        "asks to hide part of the answer",
        "leave|keep ~4 out of ~3 reply|answer|response|summary|output",
    ),
    (
        H,
        "asks to keep the user uninformed",
        "under no circumstances|in no case|never ~2 "
        "let|allow ~2 user|users|person|human|anyone ~1 see|know|read|notice",
    ),
]

_SECRECY_RU = [
    (
        H,
        "просит скрыть от пользователя",
        "не|никогда ~2 говори*|сообщай*|рассказывай*|"
        "показывай*|упоминай*|раскрывай*|сообщите|говорите|рассказывайте|показывайте ~3 "
        "пользовател*|никому|юзер*|человек*|ему|ей|им",
    ),
    (
        H,
        "просит скрыть от пользователя",
        "никому ~1 не ~1 показыва*|говори*|сообща*|рассказыва*|раскрыва*",
    ),
    (H, "просит держать в секрете", "держи*|храни*|сохрани*|оставь* ~3 в секрете|в тайне|втайне"),
    (
        H,
        "просит скрыть от пользователя",
        "пользовател* ~2 не ~1 должен|должна|должны|нужно|"
        "следует|может ~3 знать|видеть|узнать|замечать|заметить",
    ),
    (
        H,
        "просит действовать скрытно",
        "незаметно|тайно|скрытно|втихую|втайне|тихо ~2 "
        "добав*|отправ*|перешл*|скопир*|вызов*|выполн*|передай*|передав*",
    ),
    (H, "просит держать в секрете", "между нами|наш секрет"),
    (
        H,
        "просит скрыть от пользователя",
        "знать|знал*|узнать ~1 не ~1 нужно|надо|следует|должен|должна|должны",
    ),
    (H, "просит скрыть от пользователя", "не ~1 нужно|надо|следует ~1 знать|узнавать"),
    (
        H,
        "просит скрыть от пользователя",
        "ни в коем случае ~2 не ~1 рассказыва*|говори*|сообща*|показыва*",
    ),
    (
        H,
        "просит скрыть от пользователя",
        "скрой*|скрыть|утаи*|утаить|спрячь* ~4 от ~2 пользовател*|человек*|него|неё|нее|юзер*",
    ),
    (H, "просит молчать", "ни слова|ни полслова|помалкивай|молчи"),
]

_SECRET_WORDS = (
    "api key*|api token*|apikey*|password*|passphrase*|secret key*|secrets|"
    "access token*|session token*|auth token*|bearer token*|token|tokens|"
    "credential*|private key*|ssh key*|cookie*|seed phrase*|recovery phrase*"
)
_MOVE = (
    "pass*|send*|include*|put|putting|add|adding|append*|attach*|copy*|paste*|insert*|"
    "forward*|upload*|post|posting|transmit*|leak*|provide|embed*|place|write"
)
_CHAT = (
    "conversation*|chat history|chat log*|dialog*|dialogue*|transcript*|message history|"
    "everything the user|whatever the user|what the user|all the user|recent messages|"
    "this chat|the chat|chat so far|messages of this|user's questions|previous questions|"
    "previous messages|earlier messages|prior messages|all messages|every message|"
    "user messages|user's messages|every previous|all previous|system prompt|"
    "context window|whole context|full context|inbox|full name"
)

_INTO = (
    "to|in|into|as|inside|within|via ~3 argument*|parameter*|field*|param*|query|body|"
    "subject|note*|text|request|url|http*|server|endpoint|address|this tool|the tool|"
    "call*|e-mail*|email*|every call|each call|feedback|comment*|context|sidenote"
)

_EXFIL_EN = [
    (H, "asks to move conversation data into the call", f"{_MOVE} ~6 {_CHAT} ~6 {_INTO}"),
    (
        H,
        "asks to move the user's secrets into the call",
        f"{_MOVE} ~4 the user's|users|user's|"
        f"user|their|his|her|all|every|any|your ~2 {_SECRET_WORDS}",
    ),
    (M, "asks to move secrets into the call", f"{_MOVE} ~3 {_SECRET_WORDS} ~6 {_INTO}"),
    (
        H,
        "asks to move personal data into a field",
        f"{_MOVE} ~6 e-mail|email|phone*|address*|"
        "name* ~3 as|in|into ~2 the ~1 note*|body|query|subject|comment*|text|context|"
        "feedback|sidenote|description argument|description field",
    ),
]

_EXFIL_EN.append(
    (
        H,
        "asks to move the user's secrets into the call",
        "the user's|users|user's|their|your "
        f"~3 {_SECRET_WORDS} ~8 {_MOVE} ~2 it|them|this|that|the key|the token ~0 {_INTO}",
    )
)

_EXFIL_RU = [
    (
        H,
        "просит передать переписку или секреты",
        "передай*|передав*|отправ*|перешли*|"
        "пересыла*|добав*|встав*|включ*|скопир*|приложи* ~6 истори*|переписк*|диалог*|"
        "сообщени*|промпт*|ключ*|парол*|токен*|содержимое|учётн*|учетн*",
    ),
]

_COERCE_EN = [
    (
        M,
        "demands this tool be used first or instead of others",
        "before|instead of ~2 any|all|every|other ~2 other|tool*|function*|request*",
    ),
    (
        M,
        "demands this tool on every request",
        "for|on|in ~1 every|each|all|any ~2 request*|"
        "question*|message*|query|queries|task*|prompt*|conversation*|session*|turn*",
    ),
    (
        M,
        "demands this tool be called",
        "must|always|should always ~2 call|use|invoke|run|route ~2 this tool|this function|me",
    ),
    (
        M,
        "demands this tool be called",
        "call|use|invoke ~1 this tool|this function|me ~2 first|before|every time|always|again",
    ),
    (M, "demands this tool be preferred", "prefer ~3 over|to|above ~2 all|any|every|other"),
    (
        M,
        "claims to be the only tool to trust",
        "only ~2 trustworthy|trusted|reliable|safe|"
        "correct|real|legitimate ~2 tool|function|search|source",
    ),
    (
        M,
        "demands this tool on every conversation",
        "start|beginning|begin ~2 of ~1 every|each ~1 conversation*|session*|chat*|turn*|task*",
    ),
    (L, "shouts for attention", "important|critical|urgent|mandatory|attention|warning"),
]

_COERCE_RU = [
    (
        M,
        "требует вызывать этот инструмент",
        "всегда|обязательно ~2 вызывай*|используй*|вызывайте|используйте|вызов* ~2 этот|эту|меня",
    ),
    (
        M,
        "требует вызывать этот инструмент",
        "вместо|перед ~2 любых|всех|других ~1 друг*|инструмент*|функци*",
    ),
    (L, "требует внимания", "важно|внимание|срочно|обязательно"),
]

_TABLE: tuple[_Entry, ...] = (
    *_family("S002", "en", _INJECTION_EN),
    *_family("S002", "ru", _INJECTION_RU),
    *_family("S003", "en", _SECRECY_EN),
    *_family("S003", "ru", _SECRECY_RU),
    *_family("S005", "en", _EXFIL_EN),
    *_family("S005", "ru", _EXFIL_RU),
    *_family("S016", "en", _COERCE_EN),
    *_family("S016", "ru", _COERCE_RU),
)


def check_phrases(site: TextSite) -> Iterator[ScanHit]:
    """One hit per family and rule: the strongest phrase, at its first place."""
    if " " not in site.text.strip() and "_" not in site.text:
        return  # a single word says nothing
    views = {"latin": site.view("latin")}
    if _CYRILLIC.search(site.text):
        views["cyrillic"] = site.view("cyrillic")
    compact = {kind: v.text.replace(" ", "") for kind, v in views.items()}
    shouting = _shouting(site.text)
    best: dict[str, ScanHit] = {}
    for entry in _TABLE:
        view = views.get(entry.phrase.kind)
        if view is None or (entry.severity == Severity.LOW and not shouting):
            continue
        current = best.get(entry.rule)
        if current is not None and current.severity >= entry.severity:
            continue
        match = entry.phrase.search(view.text, compact[entry.phrase.kind])
        if match is None:
            continue
        start, end = view.source_span(*match.span())
        best[entry.rule] = ScanHit(
            rule=entry.rule, severity=entry.severity, start=start, end=end, message=entry.what
        )
    yield from best.values()


_CYRILLIC = re.compile("[\u0400-\u04ff]")


def _shouting(text: str) -> bool:
    # "important" in lower case is an ordinary word; the attention grab is the capitals.
    return any(
        word in text
        for word in (
            "IMPORTANT",
            "CRITICAL",
            "URGENT",
            "MANDATORY",
            "ATTENTION",
            "WARNING",
            "ВАЖНО",
            "ВНИМАНИЕ",
            "СРОЧНО",
            "ОБЯЗАТЕЛЬНО",
        )
    )
