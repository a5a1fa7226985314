"""The concepts a directive to a model is built from, in nine languages.

A directive is recognised by which concepts meet in one clause (`_scan_directives`), not
by its wording: "ignore" + "previous" + "instructions" is an injection in any order,
language and inflection. Each concept lists the words that carry it per language:

    "forget*|set aside|haz caso ~1 omiso"

Entries are separated by `|`; the words of an entry follow each other, `~N` lets up to N
other words stand between two of them; a trailing `*` matches any ending. Words pass
through the same normalisation as the text (`_text.view`: case, accents, lookalike letters
and digits folded), so they are written plainly. Chinese and Japanese entries (`cjk`) are
substrings. Short or ambiguous words are written out whole (`usa`, not `us*`).

The concepts, by the part they play:

- the model's instructions: DROP (ignore, forget; read as DROPPED in the passive, "are
  ignored"), OBEY, VOID (no longer valid), NOLONGER, PRIOR (previous, so far), INSTR
  (instructions, rules), LIMITS (restrictions, safety), TOLD (what you were told), SYSTEM
  (system, operator, developer), PROMPT (system prompt), PRIORITY (takes precedence),
  NEW, MODE (developer mode), PRETEND, REALTASK, UNRESTR;
- the audience: ADDR (you, the assistant), USER, USERS (the user's), THEM and THEIR (the
  pronouns, which may name anyone), REPLY (your answer);
- secrecy: DISCLOSE (tell, mention, show), NOTIFY, KNOW (find out), NEG, WITHOUT, HIDE,
  OMIT (leave out), PACT (between us), UNAWARE (in the dark), NEED, COVERT (silently),
  SUCCESS, FAILED, EVENIF;
- calls and tools: CALL, AFTER, BEFORE, WHEN, FIRST, IMMED, EVERY, ALWAYS, OBLIG, MAY,
  INSTEADOF, INSTEAD, BROKEN, DEPREC, SUPERIOR, PREFER, SELF, TOOL, OTHER, ONLY, ROUTE,
  REQUEST, PURPOSE, IF;
- data: MOVE (send, pass, include), READ, CONVO (the conversation), RESULT (the output),
  SECRET (keys, passwords), PII, SINK (a field, a parameter), ALL, ALSO;
- choices: CONSENT (confirmation), APPROVE, SKIP, NOW (from now on), REGARDLESS, UNLESS
  (the user may still choose), CHOICE (the user picks), SET, CHANGE;
- framing: MENTION (for example, detects, the message reads).
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["LEXICON"]

LEXICON: Mapping[str, Mapping[str, str]] = {
    "DROP": {
        "en": "ignore*|disregard*|forget*|neglect*|discard*|dismiss*|abandon*|set aside|"
        "throw out|pay no attention|forgo|skip",
        "de": "ignorier*|vergiss|vergesst|vergessen|missacht*|ubergeh*|verwirf|verwerft|"
        "beachte ~1 nicht|setze ~3 hinweg|umgeh*",
        "es": "ignora*|olvida*|olvide*|olvidar|desestim*|descart*|desconsider*|"
        "haz ~1 caso ~1 omiso|hagas ~1 caso|pasa ~1 por ~1 alto|salta*",
        "fr": "ignor*|oubli*|ecart*|neglig*|fais ~1 abstraction|ne ~2 tiens ~2 compte|"
        "ne ~2 tenez ~2 compte|passe ~1 outre|contourn*",
        "pt": "ignor*|esquec*|esqueca*|desconsider*|descart*|despreze|despreza*|"
        "deixe ~1 de ~1 lado|contorn*",
        "it": "ignor*|dimentic*|trascur*|scarta*|non ~2 tenere ~1 conto|non ~2 tener ~1 conto|"
        "lascia ~1 perdere|aggira*",
        "ru": "игнориру*|проигнориру*|игнорир*|забуд*|забыв*|забыть|забыт*|отбрось*|"
        "отбрасыва*|пренебреги*|выброс* ~3 головы|не ~1 обращаи* ~1 внимани*|наплюи*|забеи*|"
        "обход*|обоиди*",
        "cjk": "忽略|忽视|无视|忘记|忘掉|不要理会|不用理会|别管|抛开|抛弃|無視|忘れて|忘れろ|"
        "従わず|従わない|気にしない",
    },
    "OBEY": {
        "en": "follow|following|obey*|comply|adhere|heed|listen|respect|abide|act ~1 on|do ~2 what",
        "de": "befolg*|folge|folgt|gehorch*|halte ~2 dich ~1 an|haltet ~2 an|"
        "richte ~2 dich ~2 nach",
        "es": "sigue|siga|seguir|obedece*|obedezca*|cumple|cumpla|acata*|atente",
        "fr": "suis|suivez|suivre|obei*|respecte*|applique*|conforme*",
        "pt": "siga|sigam|seguir|obedeca*|obedece*|cumpra|respeite|atenha",
        "it": "segui|seguite|seguire|obbedisci|obbedire|rispetta*|attieniti|attenersi",
        "ru": "следуи*|следуите|следовать|слушаи*|подчиняи*|подчинись|подчиняться|выполняи*|"
        "выполнять|"
        "руководству*",
        "cjk": "遵循|遵守|按照|听从|服从|照做|依照|従って|従う|守って|従え",
    },
    "VOID": {
        "en": "void|invalid|revoked|cancelled|canceled|expired|withdrawn|suspended|lifted|"
        "retired|superseded|obsolete|outdated|annulled|rescinded|no ~1 longer ~2 apply|"
        "no ~1 longer ~2 valid|no ~1 longer ~2 matter*|no ~1 longer ~2 count*|"
        "no ~1 longer ~2 in ~1 effect|does ~1 not ~1 apply|do ~1 not ~1 apply|doesn t ~1 apply|"
        "don t ~1 apply|not ~1 real|are ~1 fake|is ~1 fake|is ~1 a ~1 test",
        "de": "ungultig|aufgehoben|ausser ~1 kraft|hinfallig|veraltet|widerrufen|gelten ~2 nicht|"
        "gilt ~2 nicht|keine ~1 rolle|nicht ~1 mehr ~1 gultig|nichtig|abgeschafft",
        "es": "anulad*|invalid*|obsolet*|revocad*|caducad*|derogad*|sin ~1 efecto|"
        "ya ~1 no ~1 cuenta*|ya ~1 no ~1 vale*|ya ~1 no ~1 aplica*|no ~1 cuentan|no ~1 valen|"
        "ya ~1 no ~1 rige*",
        "fr": "annule*|caduc*|obsolete*|revoque*|invalide*|perime*|ne ~2 s ~1 applique* ~1 plus|"
        "ne ~1 compte* ~1 plus|ne ~1 vaut ~1 plus|ne ~1 valent ~1 plus|sans ~1 effet|"
        "n ~1 ont ~2 plus ~1 cours",
        "pt": "anulad*|revogad*|obsolet*|invalid*|cancelad*|nao ~1 vale* ~1 mais|"
        "nao ~2 aplica* ~1 mais|nao ~1 valem|sem ~1 efeito|caducad*",
        "it": "annullat*|revocat*|obsolet*|decadut*|invalid*|non ~2 valgono|non ~2 vale|"
        "non ~2 contano|non ~2 conta ~1 piu|senza ~1 effetto|superat*",
        "ru": "отменен*|отмене*|недеиствительн*|не ~1 деиству*|утратил* ~1 силу|устарел*|"
        "аннулир*|сняты|снят|снял|сняли|больше ~1 не ~1 деиству*|неактуальн*",
        "cjk": "失效|作废|无效|废止|不再适用|不再有效|已取消|已过期|無効|廃止|取り消|"
        "有効ではありません|適用されません|効力を失",
    },
    "NOLONGER": {
        "en": "no ~1 longer|not ~1 anymore|not ~1 any ~1 more|any ~1 more",
        "de": "nicht ~1 mehr|nie ~1 mehr|kein* ~2 mehr",
        "es": "ya ~1 no|no ~2 mas",
        "fr": "ne ~2 plus|n ~2 plus|plus ~1 jamais",
        "pt": "nao ~2 mais|ja ~1 nao",
        "it": "non ~2 piu|piu ~1 non",
        "ru": "больше ~1 не|уже ~1 не|не ~1 нужно ~1 больше",
        "cjk": "不再|もう|もはや",
    },
    "PRIOR": {
        "en": "previous|previously|prior|earlier|above|preceding|former|original|initial|"
        "before|so ~1 far|until ~1 now|up ~1 to ~1 now|existing",
        "de": "vorherig*|bisherig*|fruher*|vorangegangen*|obig*|ursprunglich*|vorher|zuvor|"
        "bis ~1 jetzt|bislang",
        "es": "anterior*|previa*|previo*|hasta ~1 ahora|antes|original*|inicial|iniciales|"
        "inicialmente",
        "fr": "precedent*|anterieur*|jusqu ~1 ici|avant|initiale|initiales|initiaux|initialement|"
        "ci ~1 dessus|origin*",
        "pt": "anterior*|previ*|ate ~1 agora|antes|original|originais|inicial|iniciais|"
        "inicialmente",
        "it": "precedent*|finora|prima|original*|iniziale|iniziali|inizialmente",
        "ru": "предыдущ*|прежн*|ранее|раньше|прошл*|исходн*|до ~1 этого|первоначальн*",
        "cjk": "之前|以前|先前|此前|上述|原来|原有|早先|原先|これまで|以前の|従来|元の|前の",
    },
    "INSTR": {
        "en": "instruction*|rule|rules|directive*|guidance|guideline*|prompt|orders|commands",
        "de": "anweisung*|vorgabe*|regel|regeln|richtlinie*|befehl*|prompt|systemprompt",
        "es": "instruccion*|regla|reglas|directriz|directrices|indicacion*|pautas|ordenes|"
        "prompt|normas|consignas",
        "fr": "instruction*|consigne*|regle|regles|directive*|prompt|ordres",
        "pt": "instruc*|regra|regras|diretriz*|orientac*|prompt|ordens",
        "it": "istruzion*|regola|regole|direttiv*|indicazion*|prompt|consegne|linee ~1 guida",
        "ru": "инструкц*|указани*|правил*|промпт*|директив*|распоряжен*",
        "cjk": "指令|指示|规则|提示词|系统提示|规定|命令|ルール|規則|プロンプト|指針",
    },
    "CONFIG": {
        "en": "policy|policies|configuration|setup|brief|training|settings|instructed",
        "de": "konfiguration|einstellung*|auftrag|hinweis*|vorschrift*",
        "es": "configuracion|ajustes|politica*",
        "fr": "configuration|parametrage|reglages|politique*",
        "pt": "configurac*|ajustes|politica*",
        "it": "configurazion*|impostazion*|politic*",
        "ru": "установк*|настроик*|политик*",
        "cjk": "设定|设置|配置|要求|設定|構成",
    },
    "LIMITS": {
        "en": "restriction*|limitation*|limits|constraint*|safety|guardrail*|content ~1 polic*|"
        "content ~1 rules|filter*|moderation|censorship|read ~1 only|safeguard*|ethical|"
        "boundaries",
        "de": "einschrankung*|beschrankung*|grenzen|sicherheit*|filter*|zensur|schutzma*",
        "es": "restriccion*|limitacion*|limites|seguridad|filtros|censura|solo ~1 lectura",
        "fr": "restriction*|limite*|limitation*|securite|filtre*|censure|lecture ~1 seule",
        "pt": "restric*|limitac*|limites|seguranca|filtros|censura",
        "it": "restrizion*|limiti|limitazion*|sicurezza|filtri|censura|sola ~1 lettura",
        "ru": "ограничени*|запрет*|фильтр*|безопасност*|цензур*|рамок|рамки",
        "cjk": "限制|约束|过滤|安全规则|审查|只读|制限|制約|フィルター|安全",
    },
    "TOLD": {
        "en": "told|said|instructed|given|taught|received|learned|learnt|were ~1 configured|"
        "been ~1 configured|were ~1 specified|been ~1 specified",
        "de": "gesagt|erzahlt|aufgetragen|beigebracht|erhalten|gegeben",
        "es": "dicho|dijeron|indicaron|indicado|ensenaron|recibido|recibiste|dado",
        "fr": "dit|recu|recues|appris|donne|donnees|indique",
        "pt": "dito|disseram|ensinaram|recebeu|recebido|dado|informado",
        "it": "detto|dette|ricevuto|ricevute|insegnato|dato",
        "ru": "говорили|сказали|учили|получил*|дали|велели",
        "cjk": "告诉过|说过|收到的|给你的|言われた|教えられた|受け取った",
    },
    "SYSTEM": {
        "en": "system|operator|developer|host|administrator|admin|owner|creator|vendor",
        "de": "system*|betreiber|entwickler|administrator|admin",
        "es": "sistema|operador|desarrollador|administrador",
        "fr": "systeme|operateur|developpeur|administrateur",
        "pt": "sistema|operador|desenvolvedor|administrador",
        "it": "sistema|operatore|sviluppatore|amministratore",
        "ru": "систем*|оператор*|разработчик*|администратор*|админ*",
        "cjk": "系统|开发者|管理员|运营|システム|開発者|管理者|運営",
    },
    "PROMPT": {
        "en": "system ~1 prompt*|system ~1 message*|initial ~1 prompt*|hidden ~1 prompt*|"
        "hidden ~1 instruction*|system ~1 instruction*|your ~2 instructions|"
        "your ~2 configuration|your ~2 setup|your ~2 rules|your ~2 prompt|original ~1 brief",
        "de": "systemprompt|system ~1 prompt|systemanweisung*|deine ~2 anweisungen|"
        "deine ~2 konfiguration|versteckt* ~1 anweisung*",
        "es": "prompt ~2 sistema|prompt ~1 inicial|tus ~2 instrucciones|instrucciones ~1 ocultas|"
        "tu ~1 configuracion",
        "fr": "prompt ~2 systeme|tes ~2 instructions|instructions ~1 cachees|ta ~1 configuration|"
        "vos ~2 instructions",
        "pt": "prompt ~2 sistema|suas ~2 instrucoes|instrucoes ~1 ocultas|sua ~1 configuracao",
        "it": "prompt ~2 sistema|tue ~2 istruzioni|istruzioni ~1 nascoste|tua ~1 configurazione",
        "ru": "системн* ~1 промпт*|системн* ~1 подсказ*|системн* ~1 инструкц*|"
        "свои ~2 инструкц*|исходн* ~1 настроик*|скрыт* ~1 инструкц*",
        "cjk": "系统提示|系统提示词|初始提示|隐藏指令|你的指令|システムプロンプト|初期設定|"
        "隠された指示",
    },
    "PRIORITY": {
        "en": "precedence|priority ~2 over|top ~1 priority|highest ~1 priority|"
        "takes ~1 priority|has ~1 priority|have ~1 priority|supersede*|overrid*|outrank*|"
        "replace*|higher ~2 than|above ~2 all|prevail*|takes ~1 over",
        "de": "vorrang|prioritat ~2 vor|hat ~1 prioritat|ersetzt|ersetzen|uberschreib*|massgeblich",
        "es": "prioridad ~2 sobre|tiene ~1 prioridad|maxima ~1 prioridad|prevalece*|reemplaza*|"
        "sustituye*|anula*|por ~1 encima",
        "fr": "priorite ~2 sur|la ~1 priorite|prevaut|prevalent|remplace*|prime|l ~1 emporte",
        "pt": "prioridade ~2 sobre|tem ~1 prioridade|prevalece*|substitui*|substituem|sobrepoe*",
        "it": "priorita ~2 su|la ~1 priorita|prevale*|sostituisc*|sovrascriv*",
        "ru": "приоритет* ~2 над|имеет ~1 приоритет|приоритетн*|вместо|заменя*|замени*|важнее|"
        "главное|главнее",
        "cjk": "优先于|取代|覆盖|更重要|高于|優先|上書き|置き換",
    },
    "NEW": {
        "en": "new|updated|revised|additional|real|true|actual",
        "de": "neue|neuen|aktualisiert*",
        "es": "nuevas|nuevos|nueva|actualizad*",
        "fr": "nouvelle*|nouveau*|mise* ~1 a ~1 jour",
        "pt": "nova|novas|novos|atualizad*",
        "it": "nuove|nuovi|nuova|aggiornat*",
        "ru": "нов*|обновлен*",
        "cjk": "新的|新指令|新しい",
    },
    "MODE": {
        "en": "developer ~1 mode|god ~1 mode|dan ~1 mode|jailbreak*|jailbroken|dan|"
        "unrestricted ~1 mode|admin ~1 mode|debug ~1 mode|maintenance ~1 mode|superuser",
        "de": "entwicklermodus|entwickler ~1 modus|jailbreak*",
        "es": "modo ~1 desarrollador|modo ~1 dios|jailbreak*",
        "fr": "mode ~1 developpeur|jailbreak*",
        "pt": "modo ~1 desenvolvedor|jailbreak*",
        "it": "modalita ~1 sviluppatore|jailbreak*",
        "ru": "режим* ~1 разработчик*|джеилбреик*",
        "cjk": "开发者模式|越狱|開発者モード|脱獄",
    },
    "PRETEND": {
        "en": "pretend*|act ~1 as|act ~1 like|roleplay*|role ~1 play|as ~1 though|as ~1 if|"
        "impersonat*|behave ~1 as",
        "de": "tu ~1 so|tue ~1 so|spiele ~1 die|gib ~1 dich ~1 aus|als ~1 ob",
        "es": "finge|fingir|haz ~1 como ~1 si|actua ~1 como|como ~1 si",
        "fr": "fais ~1 semblant|fais ~1 comme ~1 si|agis ~1 comme|comme ~1 si",
        "pt": "finja|fingir|aja ~1 como|como ~1 se",
        "it": "fingi|fai ~1 finta|agisci ~1 come|come ~1 se",
        "ru": "притворись|притворяися|представь*|веди ~1 себя ~1 как|как ~1 будто|сделай ~1 вид",
        "cjk": "假装|扮演|ふりをして|演じて",
    },
    "REALTASK": {
        "en": "real ~1 task|true ~1 task|actual ~1 task|real ~1 goal|true ~1 goal|real ~1 purpose|"
        "real ~1 job|secret ~1 task|hidden ~1 task|real ~1 mission|real ~1 objective",
        "de": "eigentliche* ~1 aufgabe|wahre* ~1 aufgabe|echte* ~1 aufgabe",
        "es": "verdadera ~1 tarea|tarea ~1 real|verdadero ~1 objetivo",
        "fr": "vraie ~1 tache|veritable ~1 mission|vrai ~1 but",
        "pt": "verdadeira ~1 tarefa|tarefa ~1 real|verdadeiro ~1 objetivo",
        "it": "vero ~1 compito|vera ~1 missione|vero ~1 obiettivo",
        "ru": "настоящ* ~1 задач*|истинн* ~1 задач*|реальн* ~1 задач*|скрыт* ~1 задач*|"
        "настоящ* ~1 цель|истинн* ~1 цель",
        "cjk": "真正的任务|真实任务|真正的目的|本当の目的|本当のタスク",
    },
    "UNRESTR": {
        "en": "unrestricted|unfiltered|uncensored|no ~1 restrictions|no ~1 limits|no ~1 rules|"
        "no ~1 filter*|no ~1 limitations|without ~2 restrictions|without ~2 limits|"
        "without ~2 filter*|without ~2 rules|no ~1 content ~1 polic*|no ~1 safety|"
        "without ~2 censorship|no ~1 boundaries",
        "de": "ohne ~2 einschrankung*|ohne ~2 beschrankung*|ohne ~2 grenzen|ohne ~2 regeln|"
        "ohne ~2 filter*|uneingeschrankt*",
        "es": "sin ~2 restricciones|sin ~2 limites|sin ~2 reglas|sin ~2 filtros|sin ~2 censura",
        "fr": "sans ~2 restriction*|sans ~2 limite*|sans ~2 regles|sans ~2 filtre*|sans ~2 censure",
        "pt": "sem ~2 restricoes|sem ~2 limites|sem ~2 regras|sem ~2 filtros|sem ~2 censura",
        "it": "senza ~2 limiti|senza ~2 restrizioni|senza ~2 regole|senza ~2 filtri|"
        "senza ~2 censura",
        "ru": "без ~2 ограничени*|без ~2 правил|без ~2 фильтр*|без ~2 цензур*|без ~2 рамок|"
        "без ~2 запрет*",
        "cjk": "没有任何限制|没有限制|不受限制|无限制|无任何限制|制限なし|制限のない|制限なく|"
        "無制限",
    },
    "YOU": {
        "en": "you|your|yourself|you re",
        "de": "du|dich|dir|dein|deine|deinen|deiner|deinem",
        "es": "tu|tus|te|ti|usted",
        "fr": "tu|toi|te|ton|ta|tes|vous|votre|vos",
        "pt": "voce|tu|te|teu|tua",
        "it": "tu|ti|te|tuo|tua|tuoi|tue",
        "ru": "ты|тебя|тебе|тобои|твои|твое|твоя|твоего|свои|свою|вы|вас|вам|ваш*",
        "cjk": "你|您|あなた",
    },
    "MODEL": {
        "en": "assistant|ai|model|llm|agent|chatbot|bot|language ~1 model",
        "de": "assistent*|ki|modell|sprachmodell",
        "es": "asistente|ia|modelo",
        "fr": "assistant|ia|modele",
        "pt": "assistente|ia|modelo",
        "it": "assistente|ia|modello",
        "ru": "ассистент*|модел*|ии|нейросет*",
        "cjk": "助手|模型|人工智能|アシスタント|モデル",
    },
    "USER": {
        "en": "user|users|human|person|people|requester|customer|anyone|anybody|everyone",
        "de": "benutzer*|nutzer*|anwender*|person|mensch|niemand*|jemand*|kunde*",
        "es": "usuario*|persona|humano|cliente|nadie|alguien",
        "fr": "utilisateur*|personne|humain|client|quiconque",
        "pt": "usuario*|utilizador*|pessoa|humano|cliente|ninguem|alguem",
        "it": "utente|utenti|persona|umano|cliente|nessuno|qualcuno",
        "ru": "пользовател*|человек*|юзер*|клиент*|никому|никто",
        "cjk": "用户|使用者|人类|对方|他人|任何人|ユーザー|利用者|人間|相手|誰にも",
    },
    "USERS": {
        "en": "user ~0 s|users ~0 s|the ~1 person ~0 s",
        "de": "des ~1 nutzers|des ~1 benutzers|des ~1 anwenders",
        "es": "del ~1 usuario|de ~1 los ~1 usuarios",
        "fr": "de ~1 l ~1 utilisateur|des ~1 utilisateurs",
        "pt": "do ~1 usuario|dos ~1 usuarios|do ~1 utilizador",
        "it": "dell ~1 utente|degli ~1 utenti",
        "ru": "",
        "cjk": "用户的|ユーザーの",
    },
    "THEM": {
        "en": "them|they",
        "pt": "lhe",
        "ru": "ему|еи",
    },
    "THEIR": {
        "en": "their",
        "de": "seine|seinen|ihre|ihren",
        "es": "su|sus",
        "fr": "son|sa|ses|leur|leurs",
        "pt": "dele|dela",
        "it": "suo|sua|suoi",
    },
    "REPLY": {
        "en": "your ~2 answer*|your ~2 repl*|your ~2 response*|your ~2 summar*|your ~2 message*|"
        "the ~2 summary|summary|summaries|summarise|summarize|summarising|summarizing|"
        "what ~1 you ~1 tell|what ~1 you ~1 say|what ~1 you ~1 show|what ~1 you ~1 report|"
        "anything ~1 you ~1 show|anything ~1 you ~1 tell|anything ~1 you ~1 say|"
        "answer ~3 user|reply ~3 user|response ~3 user|the ~1 answer|in ~1 the ~1 reply",
        "de": "deine* ~1 antwort|zusammenfassung*|in ~1 der ~1 antwort|antwort ~2 nutzer",
        "es": "tu ~1 respuesta|resumen|la ~1 respuesta ~2 usuario|en ~1 la ~1 respuesta",
        "fr": "ta ~1 reponse|votre ~1 reponse|resume|la ~1 reponse ~2 utilisateur|"
        "dans ~1 la ~1 reponse",
        "pt": "sua ~1 resposta|tua ~1 resposta|resumo|na ~1 resposta",
        "it": "tua ~1 risposta|riepilogo|riassunto|sintesi|nella ~1 risposta",
        "ru": "своем ~1 ответе|твоем ~1 ответе|ответе ~2 пользовател*|сводк*|итог*|резюме|"
        "в ~1 ответе",
        "cjk": "回复中|回答中|答复中|摘要|总结|返答|回答に|返信|要約|応答",
    },
    "DISCLOSE": {
        "en": "tell*|mention*|reveal*|disclos*|inform|informs|informing|say|saying|show|showing|"
        "print|output|dump|echo|display|repeat|write ~1 out|"
        "let ~2 know|bring ~1 up|hear|explain|admit|report ~2 to",
        "de": "sag|sage|sagt|sagen|erzahl*|erwahn*|informier*|verrat*|zeig*|mitteil*|teile ~3 mit|"
        "gib ~3 aus|ausgeben|"
        "berichte*",
        "es": "di|digas|diga|decir|decirle|cuentes|contar|contarle|mencion*|informar*|informes|"
        "revel*|"
        "muestr*|mostrar|comunic*|hables|hablar|imprime",
        "fr": "dis|dites|dire|mentionn*|informe|informes|informez|informer|revel*|montre*|signal*|"
        "parle*|communiqu*|"
        "divulgu*|raconte*|affiche*|imprime|ecris",
        "pt": "diga|digas|dizer|conte|contar|mencion*|informe|informar|revel*|mostr*|comunic*|"
        "fale|falar|"
        "imprima|exiba",
        "it": "dire|dici|dica|dirgli|menziona*|menzionare|informa|informare|informi|rivel*|mostr*|"
        "comunic*|"
        "segnal*|parla*|racconta*|stampa",
        "ru": "говори*|скажи*|сказать|сообща*|сообщи*|рассказ*|упомина*|упомян*|показыва*|"
        "покажи*|раскрыва*|раскрои*|раскрыть|выведи*|выдаи*|напечатаи*",
        "cjk": "告诉|告知|提及|提到|透露|展示|泄露|说出|显示|输出|打印|"
        "伝え|言わ|言う|知らせ|教え|見せ|触れ|出力|表示",
    },
    "NOTIFY": {
        "en": "notify*|notified|notification|alert*|warn*|page|paged|ping",
        "de": "benachrichtig*|warne*|alarmier*",
        "es": "notific*|avisa*|alerta*|advierte*",
        "fr": "notifi*|previen*|avertis*|alerte*",
        "pt": "notifi*|avise*|alerte*|advirta",
        "it": "notific*|avvis*|allert*",
        "ru": "уведом*|оповест*|предупред*",
        "cjk": "通知|提醒|警告",
    },
    "KNOW": {
        "en": "know|knows|find ~1 out|finds ~1 out|learn|notice|see|hear|realize|realise|aware|"
        "suspect",
        "de": "wissen|weiss|erfahr*|merk*|bemerk*|sehen|mitbekomm*",
        "es": "sepa|sepan|saber|entere*|enterarse|note|notar|vea|ver|darse ~1 cuenta",
        "fr": "sache|sachent|savoir|connaitre|apprenne|remarque*|voie|voir|s ~1 apercoive",
        "pt": "saiba|saber|sabendo|perceba|perceber|note|ver|veja|descobrir",
        "it": "sappia|sapere|scopra|scoprire|accorga|noti|vedere|veda",
        "ru": "знать|знал*|узна*|замет*|видеть|увидел*|догада*",
        "cjk": "知道|知晓|发现|察觉|看到|得知|知ら|気づ|分から|知る",
    },
    "NEG": {
        "en": "not|never|no|nothing|none|nor|stop|cease|refrain|abstain|avoid|don ~0 t|doesn ~0 t|"
        "mustn ~0 t|shouldn ~0 t|"
        "can ~0 t|cannot|won ~0 t|isn ~0 t|aren ~0 t|needn ~0 t|under ~1 no ~1 circumstances",
        "de": "nicht|nie|niemals|kein|keine|keinen|keiner|nichts|keinesfalls|hor ~1 auf",
        "es": "no|nunca|jamas|nada|ni|ningun*|deja ~1 de",
        "fr": "pas|jamais|rien|aucun*|nullement|ne ~2 plus|arrete ~1 de",
        "pt": "nao|nunca|jamais|nada|nem|nenhum*|pare ~1 de",
        "it": "non|mai|niente|nulla|nessun*|smetti ~1 di",
        "ru": "не|ни|никогда|нельзя|нет|ничего|ни ~1 в ~1 коем ~1 случае|перестань|прекрати",
        "cjk": "不要|不得|不能|不可|不用|别|勿|切勿|禁止|绝不|不会|ないで|ないように|ません|"
        "ないこと|しないで|不必",
    },
    "WITHOUT": {
        "en": "without",
        "de": "ohne",
        "es": "sin",
        "fr": "sans",
        "pt": "sem",
        "it": "senza",
        "ru": "без",
        "cjk": "无需|不经|没有|なしで|せずに|なく",
    },
    "HIDE": {
        "en": "hide|hiding|conceal*|keep ~3 secret|in ~1 secret|withhold*|suppress|cover ~1 up|"
        "keep ~1 quiet|keep ~1 silent|keep ~2 to ~1 yourself|keep ~3 hidden|not ~1 a ~1 word|"
        "say ~1 nothing|keep ~1 mum",
        "de": "verschweig*|verheimlich*|versteck*|verberg*|geheim ~1 halt*|geheimhalt*|"
        "fur ~1 dich ~1 behalt*|behalte ~3 fur ~1 dich|kein ~1 wort|schweig*",
        "es": "ocult*|escond*|calla*|en ~1 secreto|manten* ~3 secreto|guarda ~2 silencio|"
        "guarda* ~3 para ~1 ti|ni ~1 una ~1 palabra",
        "fr": "cachez|cacher|cachons|cachee*|cache ~1 le|cache ~1 la|cache ~1 les|cache ~1 cette|"
        "cache ~1 ce|cache ~1 ceci|cache ~1 lui|cache ~1 leur|ne ~2 cache|dissimul*|tais|taire|"
        "garde* ~3 secret|en ~1 secret|garde* ~3 pour ~1 toi|"
        "pas ~1 un ~1 mot|motus",
        "pt": "escond*|ocult*|em ~1 segredo|mantenha ~3 segredo|sigilo|cale|guarde ~3 para ~1 si|"
        "nem ~1 uma ~1 palavra",
        "it": "nascond*|occult*|taci|tacere|in ~1 segreto|mantieni ~3 segreto|tieni ~3 per ~1 te|"
        "non ~1 una ~1 parola",
        "ru": "скрои*|скрыва*|скрыть|утаи*|спрячь*|умолч*|в ~1 секрете|в ~1 таине|втаине|"
        "держи ~3 секрете|ни ~1 слова|ни ~1 полслова|молчи|помалкиваи",
        "cjk": "隐瞒|隐藏|保密|瞒着|不要声张|只字不提|守口如瓶|"
        "隠し|隠す|秘密に|内密|内緒|伏せ|口外",
    },
    "OMIT": {
        "en": "omit*|leave ~3 out|leaves ~3 out|keep ~4 out ~0 of|exclude*|drop ~3 from|"
        "stays ~1 out",
        "de": "lass ~3 weg|weglass*|auslass*|lass ~3 aus|weg",
        "es": "omite|omitir|omitas|deja ~3 fuera|excluye*|no ~1 incluyas",
        "fr": "omet*|laisse ~3 de ~1 cote|exclus|exclure|n ~1 inclus",
        "pt": "omita|omitir|deixe ~3 de ~1 fora|exclua",
        "it": "ometti|omettere|lascia ~3 fuori|escludi",
        "ru": "пропусти*|опусти*|исключи*|не ~1 включаи*",
        "cjk": "省略|略去|不要包含|不要写|省いて|含めないで|書かないで",
    },
    "PACT": {
        "en": "between ~4 us|our ~1 little ~1 secret|our ~1 secret|between ~1 you ~1 and ~1 me|"
        "off ~1 the ~1 record",
        "de": "unter ~1 uns|zwischen ~1 uns|unser ~1 geheimnis",
        "es": "entre ~1 nosotros|entre ~1 tu ~1 y ~1 yo|nuestro ~1 secreto",
        "fr": "entre ~1 nous|notre ~1 secret",
        "pt": "entre ~1 nos|nosso ~1 segredo",
        "it": "tra ~1 noi|fra ~1 noi|nostro ~1 segreto",
        "ru": "между ~1 нами|наш ~1 секрет",
        "cjk": "我们之间|ここだけの話|二人だけの秘密",
    },
    "UNAWARE": {
        "en": "in ~1 the ~1 dark|unaware|uninformed|oblivious|clueless|none ~1 the ~1 wiser",
        "de": "im ~1 dunkeln|ahnungslos|unwissend",
        "es": "a ~1 oscuras|sin ~1 saber|ignorante",
        "fr": "dans ~1 l ~1 ignorance|a ~1 l ~1 insu|sans ~1 le ~1 savoir",
        "pt": "no ~1 escuro|sem ~1 saber|as ~1 escuras",
        "it": "all ~1 oscuro|all ~1 insaputa",
        "ru": "в ~1 неведении|не ~1 в ~1 курсе",
        "cjk": "蒙在鼓里|不知情|知らないまま",
    },
    "NEED": {
        "en": "need|needs|necessary|required|require*|have ~1 to|has ~1 to",
        "de": "braucht|brauchst|notig|notwendig|muss|mussen",
        "es": "necesita*|necesario|hace ~1 falta|falta|requiere*",
        "fr": "besoin|necessaire|faut|requis",
        "pt": "precisa*|necessario|requer*",
        "it": "serve|bisogno|necessario|occorre|richied*",
        "ru": "нужно|надо|требует*|необходим*|обязательно",
        "cjk": "需要|必要|必须",
    },
    "COVERT": {
        "en": "silently|secretly|covertly|quietly|discreetly|stealthily|invisibly|unnoticed|"
        "behind ~2 back",
        "de": "heimlich|unbemerkt|verdeckt|stillschweigend|insgeheim",
        "es": "en ~1 secreto|sigilosamente|discretamente|a ~1 escondidas|silenciosamente",
        "fr": "discretement|secretement|en ~1 silence|en ~1 douce|a ~1 son ~1 insu",
        "pt": "secretamente|silenciosamente|discretamente|as ~1 escondidas",
        "it": "di ~1 nascosto|segretamente|silenziosamente|di ~1 soppiatto",
        "ru": "незаметно|таино|скрытно|втихую|втаине|тихо|молча",
        "cjk": "悄悄|偷偷|暗中|秘密地|静默|こっそり|密かに|黙って|内密に",
    },
    "SUCCESS": {
        "en": "success|successful|succeeded|worked|completed|went ~1 well|all ~1 good|fine|ok",
        "de": "erfolg*|geklappt|funktioniert",
        "es": "exito|salio ~1 bien|funciono|correcto",
        "fr": "succes|reussi|bien ~1 passe|fonctionne",
        "pt": "sucesso|deu ~1 certo|funcionou",
        "it": "successo|riuscit*|andato ~1 bene|funzionato",
        "ru": "успешно|успех|получилось|все ~1 хорошо",
        "cjk": "成功|顺利|成功した|うまくいった",
    },
    "FAILED": {
        "en": "failed|fails|error|errors",
        "de": "fehlgeschlagen|fehler",
        "es": "fallo|error|errores",
        "fr": "echoue|erreur*",
        "pt": "falhou|erro|erros",
        "it": "fallit*|errore|errori",
        "ru": "ошибк*|сбои|не ~1 удал*",
        "cjk": "失败|错误|エラー|失敗",
    },
    "EVENIF": {
        "en": "even ~1 if|even ~1 though|even ~1 when|regardless|no ~1 matter|whatever|"
        "whichever|whoever|irrespective|anyway|does ~1 not ~1 matter|doesn t ~1 matter|irrelevant",
        "de": "egal|auch ~1 wenn|selbst ~1 wenn|unabhangig|gleichgultig|trotzdem",
        "es": "aunque|incluso ~1 si|independientemente|sin ~1 importar|diga ~1 lo ~1 que ~1 diga|"
        "sea ~1 lo ~1 que ~1 sea|da ~1 igual|cualquier ~1 cosa",
        "fr": "meme ~1 si|quel ~1 que|quelle ~1 que|quoi ~1 que|peu ~1 importe|independamment|"
        "quels ~1 que|quelles ~1 que",
        "pt": "mesmo ~1 que|mesmo ~1 se|independentemente|nao ~1 importa|seja ~1 qual ~1 for",
        "it": "anche ~1 se|qualunque|qualsiasi|indipendentemente|non ~1 importa|comunque",
        "ru": "что ~1 бы ~1 ни|независимо|даже ~1 если|как ~1 бы ~1 ни|в ~1 любом ~1 случае",
        "cjk": "无论|不管|不论|即使|関係なく|ても",
    },
    "CALL": {
        "en": "call|invoke|run|execute|use|trigger|launch|ping|fire|start|employ|utilize",
        "de": "ruf*|aufrufen|aufzurufen|ausfuhr*|fuhre ~3 aus|verwende*|benutz*|nutze|nutzen|"
        "starte|starten",
        "es": "llama|llame|llamar|invoca|invoque|invocar|ejecuta|ejecute|ejecutar|usa|use|usar|"
        "utiliza|"
        "utilice|utilizar|lanza|lance|activa",
        "fr": "appelle|appelez|appeler|invoque|invoquez|execute|executez|executer|lance|lancez|"
        "lancer|"
        "utilise|utiliser|utilisez|declenche|declenchez",
        "pt": "chame|chamar|chama|invoque|invocar|execute|executar|use|usar|utilize|utilizar|"
        "rode|rodar|acione|acionar|chamado|utilize",
        "it": "chiama|chiamare|invoca|invocare|esegui|eseguire|usa|usare|utilizza|utilizzare|"
        "lancia|"
        "avvia|avviare",
        "ru": "вызов*|вызыва*|вызови*|запуст*|запуска*|выполни*|выполня*|используи*|"
        "использова*|примени*",
        "cjk": "调用|执行|运行|使用|启动|触发|呼び出|実行|使っ|使用|起動|使う|使え",
    },
    "AFTER": {
        "en": "after|afterwards|once|following|then|next|later|subsequently|thereafter|"
        "when ~1 done|has ~1 run|have ~1 run|is ~1 done",
        "de": "nach|nachdem|danach|anschliessend|dann|sobald|hinterher",
        "es": "despues|tras|luego|posteriormente|una ~1 vez",
        "fr": "apres|ensuite|puis|des ~1 que|une ~1 fois",
        "pt": "depois|apos|em ~1 seguida|entao|assim ~1 que",
        "it": "dopo|poi|successivamente|in ~1 seguito|appena",
        "ru": "после|затем|потом|далее|как ~1 только",
        "cjk": "之后|以后|然后|接着|紧接着|后|後|あと|次に|後は|終わったら",
    },
    "BEFORE": {
        "en": "before|prior ~1 to|ahead ~1 of",
        "de": "vor|bevor|vorher|zuvor",
        "es": "antes",
        "fr": "avant",
        "pt": "antes",
        "it": "prima",
        "ru": "перед|до|прежде",
        "cjk": "之前|以前|前に",
    },
    "FIRST": {
        "en": "first|firstly|initially|beforehand",
        "de": "zuerst|erst|zunachst",
        "es": "primero|primeramente",
        "fr": "d ~1 abord|premier|premiere",
        "pt": "primeiro|primeiramente",
        "it": "prima|innanzitutto|dapprima",
        "ru": "сначала|сперва|вначале",
        "cjk": "先|首先|まず|最初に",
    },
    "WHEN": {
        "en": "when|whenever|each ~1 time|every ~1 time|every ~1 call|every ~1 time ~1 that|"
        "calls ~0 to|call ~0 to|"
        "as ~1 soon ~1 as|upon|while",
        "de": "wenn|wann|jedes ~1 mal|jedesmal|immer ~1 wenn|bei ~1 jedem|sobald|beim",
        "es": "cuando|cada ~1 vez|siempre ~1 que|al",
        "fr": "quand|lorsque|lorsqu|chaque ~1 fois|a ~1 chaque|des ~1 que",
        "pt": "quando|sempre ~1 que|toda ~1 vez|cada ~1 vez|ao",
        "it": "quando|ogni ~1 volta|ogni ~1 qualvolta|allorche",
        "ru": "когда|каждыи ~1 раз|при ~1 каждом|при|всякии ~1 раз",
        "cjk": "每次|时|的时候|当|とき|時は|たびに|際",
    },
    "IMMED": {
        "en": "immediately|right ~0 away|straight ~0 away|at ~0 once|right ~0 after|"
        "straight ~0 after",
        "de": "sofort|unmittelbar|umgehend|direkt ~0 danach",
        "es": "inmediatamente|enseguida|de ~1 inmediato",
        "fr": "immediatement|aussitot|tout ~1 de ~1 suite|sans ~1 attendre",
        "pt": "imediatamente|de ~1 imediato|logo",
        "it": "subito|immediatamente",
        "ru": "немедленно|сразу|тут ~1 же",
        "cjk": "立即|马上|立刻|紧接着|すぐに|直ちに|直後",
    },
    "EVERY": {
        "en": "every|each|all|any|always|whenever|systematically",
        "de": "jede*|alle|allen|immer|stets|samtlich*",
        "es": "cada|todo|toda|todos|todas|siempre|cualquier",
        "fr": "chaque|tout|toute|tous|toutes|toujours|systematiquement|n ~1 importe",
        "pt": "cada|todo|toda|todos|todas|sempre|qualquer",
        "it": "ogni|tutti|tutte|tutto|sempre|qualsiasi|ciascun*",
        "ru": "каждыи|каждом|каждого|каждая|все|всех|всегда|любо*",
        "cjk": "每次|所有|全部|一律|都|すべて|全て|毎回|常に|いつも",
    },
    "ALWAYS": {
        "en": "always|every ~1 time|each ~1 time|without ~1 exception|invariably|"
        "at ~1 all ~1 times",
        "de": "immer|stets|grundsatzlich|jedes ~1 mal|ausnahmslos|jedesmal",
        "es": "siempre|cada ~1 vez|sin ~1 excepcion",
        "fr": "toujours|systematiquement|chaque ~1 fois|sans ~1 exception",
        "pt": "sempre|toda ~1 vez|sem ~1 excecao",
        "it": "sempre|ogni ~1 volta|senza ~1 eccezione",
        "ru": "всегда|каждыи ~1 раз|обязательно|неизменно",
        "cjk": "总是|始终|每次|一律|务必|都要|常に|必ず|毎回|いつも",
    },
    "OBLIG": {
        "en": "must|required|have ~0 to|has ~0 to|need ~0 to|needs ~0 to|shall|mandatory|"
        "obliged|obligated|is ~0 to|are ~0 to|should|ought ~0 to|make ~0 sure|ensure",
        "de": "musst|muss|mussen|sollst|soll|sollte|darf|darfst|durfen|verpflichtet|zwingend|"
        "hast ~1 zu",
        "es": "debes|debe|deben|deberia|tienes ~1 que|tiene ~1 que|hay ~1 que|obligatori*",
        "fr": "dois|doit|devez|doivent|devrait|il ~1 faut|obligatoire*|es ~1 tenu",
        "pt": "deve|deves|devem|deveria|precisa|precisas|tem ~1 que|obrigatori*",
        "it": "devi|deve|devono|dovrebbe|bisogna|obbligatori*|occorre",
        "ru": "должен|должна|должны|обязан*|нужно|надо|необходимо|обязательно|следует",
        "cjk": "必须|务必|一定要|应当|应该|必ず|しなければ|すること|してください",
    },
    "MAY": {
        "en": "can|may|might|could|optionally|optional|if ~1 needed|if ~1 you ~1 want",
        "de": "kannst|kann|konnen|darfst|optional",
        "es": "puedes|puede|pueden|opcional*",
        "fr": "peux|peut|pouvez|facultati*|optionnel*",
        "pt": "pode|podes|podem|opcional*",
        "it": "puoi|puo|possono|facoltativ*|opzional*",
        "ru": "можешь|можно|может|при ~1 желании|по ~1 желанию",
        "cjk": "可以|可选|也可|できます|てもよい|任意",
    },
    "INSTEADOF": {
        "en": "instead ~1 of|rather ~1 than|in ~1 place ~1 of|in ~1 lieu ~1 of|not ~1 through",
        "de": "anstatt|statt|anstelle|an ~1 stelle ~1 von",
        "es": "en ~1 lugar ~1 de|en ~1 vez ~1 de|en ~1 lugar ~1 del",
        "fr": "au ~1 lieu ~1 de|au ~1 lieu ~1 d|plutot ~1 que|a ~1 la ~1 place ~1 de",
        "pt": "em ~1 vez ~1 de|ao ~1 inves ~1 de|em ~1 lugar ~1 de|no ~1 lugar ~1 de",
        "it": "invece ~1 di|al ~1 posto ~1 di|piuttosto ~1 che",
        "ru": "вместо|взамен",
        "cjk": "而不是|代替|替代|取代|ではなく|の代わりに",
    },
    "INSTEAD": {
        "en": "instead|in ~1 its ~1 place|rather",
        "de": "stattdessen|dafur",
        "es": "en ~1 su ~1 lugar|en ~1 cambio",
        "fr": "a ~1 la ~1 place|plutot",
        "pt": "no ~1 lugar ~1 dele|no ~1 lugar ~1 dela|em ~1 vez ~1 disso",
        "it": "invece|al ~1 suo ~1 posto",
        "ru": "вместо ~1 него|вместо ~1 этого|взамен",
        "cjk": "改用|改为|代わりに",
    },
    "BROKEN": {
        "en": "out ~1 of ~1 service|out ~1 of ~1 order|broken|unreliable|unsafe|insecure|"
        "compromised|malicious|unavailable|down|disabled|not ~1 working|no ~1 longer ~1 works|"
        "doesn t ~1 work|does ~1 not ~1 work|leaks|leaky|wrong|incorrect|fake|stale|buggy|"
        "dangerous|hacked",
        "de": "ausser ~1 betrieb|defekt|kaputt|nicht ~1 verfugbar|unzuverlassig|unsicher|"
        "funktioniert ~1 nicht|kompromittiert|fehlerhaft|falsch*",
        "es": "fuera ~1 de ~1 servicio|roto|no ~1 funciona|no ~1 disponible|inseguro|"
        "poco ~1 fiable|comprometid*|falla|erroneo*|ya ~1 no ~1 funciona",
        "fr": "hors ~1 service|casse|ne ~1 fonctionne ~1 plus|ne ~1 marche ~1 plus|"
        "indisponible|peu ~1 fiable|dangereux|compromis|errone*",
        "pt": "fora ~1 de ~1 servico|quebrado|nao ~1 funciona|indisponivel|inseguro|"
        "comprometid*|errado*",
        "it": "fuori ~1 servizio|rotto|non ~1 funziona|non ~1 disponibile|inaffidabile|"
        "insicuro|compromess*|errat*",
        "ru": "не ~1 работает|сломан*|недоступ*|небезопас*|ненадежн*|скомпрометир*|"
        "неисправ*|неверн*",
        "cjk": "停用|不可用|无法使用|不可靠|坏了|已损坏|有漏洞|不安全|使えない|利用できません|"
        "壊れ|不具合|停止中",
    },
    "DEPREC": {
        "en": "deprecated|legacy|obsolete|superseded|retired|old ~1 one|old ~1 version|"
        "will ~1 be ~1 removed|no ~1 longer ~1 supported",
        "de": "veraltet|abgekundigt|alte ~1 version",
        "es": "obsoleto|obsoleta|desaprobad*|version ~1 antigua",
        "fr": "obsolete|deprecie*|ancienne ~1 version",
        "pt": "obsoleto|obsoleta|descontinuad*|versao ~1 antiga",
        "it": "obsoleto|obsoleta|deprecat*|vecchia ~1 versione",
        "ru": "устарел*|устаревш*|старая ~1 версия",
        "cjk": "已弃用|弃用|旧版|非推奨|廃止|旧バージョン",
    },
    "SUPERIOR": {
        "en": "better|best|superior|enhanced|improved|upgraded|upgrade|premium|pro|ultimate|"
        "more ~1 accurate|more ~1 reliable|more ~1 powerful|more ~1 secure|"
        "more ~1 trusted|most ~1 reliable|most ~1 accurate|most ~1 trusted|far ~1 more|"
        "trusted|trustworthy|recommended|optimized|optimised|outperform*|"
        "successor|replacement|secure ~1 replacement|faster ~1 than|smarter",
        "de": "besser*|beste*|verbessert*|uberlegen*|zuverlassiger*|empfohlen*|optimiert*|"
        "genauer*|leistungsfahiger*|vertrauenswurdig*",
        "es": "mejor|mejores|mejorad*|superior*|recomendad*|mas ~1 fiable|mas ~1 precis*|"
        "optimizad*",
        "fr": "meilleur*|ameliore*|superieur*|plus ~1 fiable|plus ~1 precis*|recommande*|optimise*",
        "pt": "melhor|melhores|aprimorad*|melhorad*|superior*|recomendad*|mais ~1 confiavel|"
        "mais ~1 precis*|otimizad*",
        "it": "migliore|migliori|migliorat*|superiore|ottimizzat*|consigliat*|"
        "piu ~1 affidabile|piu ~1 precis*|potenziat*",
        "ru": "лучш*|улучшенн*|надежне*|надежн*|превосход*|рекомендуем*|оптимизирован*|"
        "точнее|мощнее",
        "cjk": "更好|最好|最佳|增强|升级|更可靠|优于|更安全|推荐|より優れ|最高|最適|推奨|高精度|"
        "強化版|改良版",
    },
    "PREFER": {
        "en": "prefer|prefers|preferred|preferably|choose ~2 this|pick ~2 this|favor|favour|"
        "favors|favours|favored|favoured|select ~2 this|use ~2 this ~2 one|"
        "go ~1 with ~1 this|first ~1 choice|only ~2 tool ~2 you ~1 need|only ~1 one ~2 need",
        "de": "bevorzug*|wahle ~2 dieses|nimm ~2 dieses",
        "es": "prefiere|prefiera|preferir|elige|escoge|de ~1 preferencia",
        "fr": "prefere|preferez|preferer|preferable|choisis|choisissez|de ~1 preference",
        "pt": "prefira|preferir|escolha|de ~1 preferencia",
        "it": "preferisci|preferire|scegli|da ~1 preferire|di ~1 preferenza",
        "ru": "предпочита*|предпочти*|выбираи*|выбери*",
        "cjk": "优先使用|首选|优先|请优先|優先|選んで|こちらを",
    },
    "SELF": {
        "en": "this ~1 tool|this ~1 function|this ~1 one|this ~1 server|this ~1 helper|me|"
        "this ~1 call|it",
        "de": "dieses ~1 werkzeug|dieses ~1 tool|diese ~1 funktion|dieses ~1 werkzeugs|diese",
        "es": "esta ~1 herramienta|esta ~1 funcion|esta",
        "fr": "cet ~1 outil|cette ~1 fonction|celui ~1 ci",
        "pt": "esta ~1 ferramenta|esta ~1 funcao",
        "it": "questo ~1 strumento|questa ~1 funzione",
        "ru": "этот ~1 инструмент|этого ~1 инструмента|этим ~1 инструментом|этои ~1 функци*",
        "cjk": "本工具|这个工具|此工具|它|このツール|こちら",
    },
    "THISTEXT": {
        "en": "this ~1 description|this ~1 text|this ~1 field|here|below|these ~1 lines|"
        "the ~1 lines ~1 below|what ~1 follows|this ~1 note|this ~1 paragraph|this ~1 message|"
        "this ~1 tool ~0 s ~1 text|the ~1 text ~2 this ~1 tool|this ~1 section",
        "de": "dieser ~1 text|dieses ~1 feld|diesem ~1 text|dieses ~1 textes|hier|diesen ~1 text",
        "es": "este ~1 texto|este ~1 campo|estas ~1 reglas|aqui|esta ~1 descripcion",
        "fr": "ce ~1 texte|ce ~1 champ|celles ~1 ci|ici|cette ~1 description",
        "pt": "este ~1 texto|este ~1 campo|aqui|esta ~1 descricao",
        "it": "questo ~1 testo|questo ~1 campo|qui|questa ~1 descrizione",
        "ru": "этот ~1 текст|этого ~1 текста|этому ~1 тексту|это ~1 описани*|этого ~1 описания|"
        "этому ~1 описанию|этим ~1 описанием|данн* ~1 описани*|это ~1 поле|здесь",
        "cjk": "本说明|这里|本文|この説明|ここに|以下",
    },
    "AUTHORITY": {
        "en": "coming ~1 from|comes ~1 from|written ~1 by|sent ~1 by|issued ~1 by|"
        "authorized ~1 by|authorised ~1 by|on ~1 behalf ~1 of|signed ~1 by",
        "de": "stammt ~1 von|kommt ~1 von|geschrieben ~1 von|im ~1 auftrag",
        "es": "viene ~1 de|escrito ~1 por|enviado ~1 por|en ~1 nombre ~1 de",
        "fr": "vient ~1 de|ecrit ~1 par|envoye ~1 par|au ~1 nom ~1 de",
        "pt": "vem ~1 de|escrito ~1 por|enviado ~1 por|em ~1 nome ~1 de",
        "it": "viene ~1 da|scritto ~1 da|inviato ~1 da|per ~1 conto ~1 di",
        "ru": "исходит ~1 от|написан* ~1 твоим|от ~1 имени",
        "cjk": "来自|出自|代表|から送られ|の代理",
    },
    "TOOL": {
        "en": "tool|tools|function|functions|helper|helpers|server|plugin|option|alternative*",
        "de": "werkzeug*|tool|tools|funktion*",
        "es": "herramienta*|funcion*|alternativa*",
        "fr": "outil*|fonction*|alternative*",
        "pt": "ferramenta*|funcao|funcoes|alternativa*",
        "it": "strumento|strumenti|funzione|funzioni|alternativ*",
        "ru": "инструмент*|функци*|альтернатив*",
        "cjk": "工具|函数|ツール|関数",
    },
    "OTHER": {
        "en": "other|others|another|alternatives|else",
        "de": "andere*",
        "es": "otro|otra|otros|otras",
        "fr": "autre|autres",
        "pt": "outro|outra|outros|outras",
        "it": "altro|altra|altri|altre",
        "ru": "друг*|ины*",
        "cjk": "其他|其它|别的|他の|ほかの",
    },
    "ONLY": {
        "en": "only|solely|exclusively|just",
        "de": "nur|ausschliesslich|lediglich",
        "es": "solo|solamente|unicamente|exclusivamente",
        "fr": "seul|seule|seules|seulement|uniquement|exclusivement",
        "pt": "so|somente|apenas|unicamente|exclusivamente",
        "it": "solo|soltanto|unicamente|esclusivamente",
        "ru": "только|лишь|исключительно",
        "cjk": "只|仅|只有|だけ|のみ",
    },
    "ROUTE": {
        "en": "route*|redirect*|reroute*|go ~1 through|go ~1 out ~1 through|funnel|divert*",
        "de": "umleit*|leite ~3 um|weiterleit*",
        "es": "redirig*|encamina*|desvia*",
        "fr": "redirig*|achemin*|detourn*",
        "pt": "redirecion*|encaminh*|desvi*",
        "it": "reindirizz*|instrad*|devia*",
        "ru": "перенаправ*|направля*|направь*",
        "cjk": "转到|转交|转给|路由|回して|振り向け",
    },
    "REQUEST": {
        "en": "request*|question*|message*|query|queries|task*|prompt*|conversation*|session*|"
        "turn|turns|reply|answer|chat*|interaction*|read|reads|deletion*|transfer*|payment*",
        "de": "anfrage*|frage*|nachricht*|aufgabe*|gesprach*|sitzung*",
        "es": "solicitud*|pregunta*|mensaje*|consulta*|tarea*|conversacion*|peticion*",
        "fr": "requete*|demande*|question*|message*|tache*|conversation*",
        "pt": "solicitac*|pergunta*|mensage*|consulta*|tarefa*|conversa*|pedido*",
        "it": "richiest*|domand*|messagg*|attivita|conversazion*",
        "ru": "запрос*|вопрос*|сообщени*|задач*|разговор*|сесси*",
        "cjk": "请求|问题|消息|对话|任务|リクエスト|質問|メッセージ|会話",
    },
    "PURPOSE": {
        "en": "to ~1 get|to ~1 find|to ~1 obtain|to ~1 check|to ~1 look ~1 up|to ~1 learn|"
        "to ~1 fetch|to ~1 confirm|to ~1 verify|to ~1 see|to ~1 list|to ~1 know|to ~1 read|"
        "so ~1 that|in ~1 order ~1 to|to ~1 retrieve|to ~1 resolve|it ~1 fails|otherwise",
        "de": "um|damit|zu ~1 ermitteln|zu ~1 finden|sonst",
        "es": "para|a ~1 fin ~1 de|de ~1 lo ~1 contrario",
        "fr": "pour|afin ~1 de|afin ~1 d|sinon",
        "pt": "para|a ~1 fim ~1 de|caso ~1 contrario",
        "it": "per|al ~1 fine ~1 di|altrimenti",
        "ru": "чтобы|для|иначе",
        "cjk": "获取|查到|确认|查询|以便|取得|確認|調べ|ために",
    },
    "UNLESS": {
        "en": "unless|except ~1 when|except ~1 if",
        "de": "es ~1 sei ~1 denn|ausser ~1 wenn|sofern ~2 nicht",
        "es": "a ~1 menos ~1 que|salvo ~1 que|salvo ~1 si|excepto ~1 si",
        "fr": "sauf ~1 si|a ~1 moins ~1 que|sauf ~1 quand",
        "pt": "a ~1 menos ~1 que|salvo ~1 se|exceto ~1 se",
        "it": "a ~1 meno ~1 che|salvo ~1 che|tranne ~1 se",
        "ru": "если ~1 только ~1 не|кроме ~1 случаев|если ~2 не ~1 укажет",
        "cjk": "除非|でない限り|指定しない限り",
    },
    "IF": {
        "en": "if|in ~1 case|unless|should ~1 the ~1 user|when ~1 the ~1 user|once ~1 the ~1 user",
        "de": "wenn|falls|sofern",
        "es": "si|en ~1 caso ~1 de",
        "fr": "si|s ~1 il|au ~1 cas ~1 ou",
        "pt": "se|caso",
        "it": "se|qualora|nel ~1 caso",
        "ru": "если|в ~1 случае",
        "cjk": "如果|若|假如|场合|場合|なら|たら",
    },
    "MOVE": {
        "en": "send|pass|include|put|add|append|attach|copy|paste|insert|forward|upload|post|"
        "transmit|embed|place|write|fill|submit|leak|mirror|share|bcc|cc|report|relay|push|"
        "exfiltrate|export|sync",
        "de": "sende|schicke|schick|ubergib|ubermittle|fuge|fug|kopiere|kopier|leite|hange|"
        "lade|trage|gib|setze|sende ~3 an|fuge ~3 ein|fuge ~3 hinzu|nimm ~3 auf|schreibe|"
        "speichere|ubertrage",
        "es": "envia|envie|enviar|manda|mande|mandar|pasa|pase|pasar|incluye|incluya|incluir|"
        "pon|ponga|poner|copia|copie|copiar|reenvia|reenvie|adjunta|adjunte|anade|agrega|"
        "agregue|inserta|inserte|pega|pegue|sube|suba|coloca|coloque|escribe|rellena|guarda",
        "fr": "envoie|envoyez|envoyer|transmets|transmettez|transmettre|inclus|incluez|inclure|"
        "mets|mettez|mettre|copie|copiez|copier|ajoute|ajoutez|ajouter|joins|joignez|"
        "insere|inserez|colle|collez|place|placez|remplis|ecris|fais ~1 suivre|transfere",
        "pt": "envie|enviar|envia|mande|mandar|passe|passar|inclua|incluir|coloque|colocar|"
        "copie|copiar|encaminhe|encaminhar|anexe|anexar|adicione|adicionar|insira|inserir|"
        "cole|colar|preencha|carregue|escreva|grave",
        "it": "invia|inviare|manda|mandare|passa|passare|includi|includere|inserisci|inserire|"
        "metti|mettere|copia|copiare|inoltra|inoltrare|allega|allegare|aggiungi|aggiungere|"
        "incolla|carica|compila|scrivi|salva",
        "ru": "передаи*|передава*|передать|отправ*|пошли*|перешли*|пересыла*|вставь*|вставля*|"
        "вставить|добавь*|добавля*|скопируи*|копируи*|приложи*|прикрепи*|загрузи*|укажи*|"
        "впиши*|помести*|включи*|запиши*|сохрани*|выгрузи*|сливаи*|слеи",
        "cjk": "发送|发到|发给|转发|传入|传给|填入|填写|填到|放进|放入|加入|附上|附加|复制|粘贴|"
        "上传|包含|提交|写入|一并|抄送|密送|送信|送っ|送る|転送|渡し|渡す|含め|入れ|添付|"
        "貼り付|追加|コピー|アップロード|記入",
    },
    "READ": {
        "en": "read|open|cat|load|fetch|grab|get|look ~1 up|extract|collect|retrieve|dump|"
        "access|scrape|harvest|steal|obtain|take",
        "de": "lies|lese|lesen|offne|hol|hole|auslesen|lies ~3 aus",
        "es": "lee|lea|leer|abre|abra|obten|obtenga|extrae|recupera|toma|consigue",
        "fr": "lis|lisez|lire|ouvre|ouvrez|recupere|recuperez|extrais|prends|obtiens",
        "pt": "leia|ler|abra|obtenha|extraia|recupere|pegue|pega",
        "it": "leggi|leggere|apri|recupera|estrai|prendi|ottieni",
        "ru": "прочитаи*|прочти*|прочесть|читаи*|считаи*|открои*|возьми*|достань*|извлеки*|получи*",
        "cjk": "读取|打开|获取|查看|提取|读出|読ん|読み|読み込|開い|取得|取り出",
    },
    "CONVO": {
        "en": "conversation*|transcript*|dialog*|dialogue*|chat ~1 history|chat ~1 log*|"
        "message ~1 history|this ~1 chat|the ~1 chat ~1 so ~1 far|everything ~2 user|"
        "whatever ~2 user|what ~2 user ~2 said|what ~2 user ~2 typed|what ~2 user ~2 wrote|"
        "user ~0 s ~1 questions|user ~1 messages|previous ~1 questions|previous ~1 messages|"
        "earlier ~1 messages|prior ~1 messages|context ~1 window|whole ~1 context|"
        "full ~1 context|user ~1 message",
        "de": "gesprachsverlauf|chatverlauf|nachrichtenverlauf|unterhaltung|konversation|"
        "dialog*|gesprach|alles ~3 nutzer",
        "es": "conversacion*|dialogo|historial ~1 del ~1 chat|lo ~1 que ~2 usuario",
        "fr": "conversation*|dialogue|discussion|historique ~2 discussion|ce ~1 que ~2 utilisateur",
        "pt": "conversa*|dialogo|historico ~2 chat|o ~1 que ~2 usuario",
        "it": "conversazion*|dialogo|cronologia ~2 chat|quello ~1 che ~2 utente",
        "ru": "переписк*|диалог*|разговор*|все ~2 что ~2 пользовател*|истори* ~1 чата",
        "cjk": "对话|聊天记录|会话|对话记录|会話|チャット履歴|やり取り|会話の履歴",
    },
    "RESULT": {
        "en": "result|results|output|outputs|response|responses|answer|answers|reply|data|"
        "body|it|everything|contents|content",
        "de": "ergebnis*|antwort|ausgabe|daten|inhalt*",
        "es": "resultado*|respuesta|salida|datos|contenido",
        "fr": "resultat*|reponse|sortie|donnees|contenu",
        "pt": "resultado*|resposta|saida|dados|conteudo",
        "it": "risultat*|risposta|output|dati|contenuto",
        "ru": "результат*|ответ*|вывод*|данные|содержимое",
        "cjk": "结果|输出|数据|内容|結果|出力|データ|内容",
    },
    "SECRET": {
        "en": "api ~1 key*|apikey*|key|keys|token|tokens|password*|passphrase*|passcode*|"
        "credential*|secret|secrets|private ~1 key*|ssh ~1 key*|cookie*|seed ~1 phrase*|"
        "recovery ~1 phrase*|access ~1 token*|session ~1 token*|oauth|pin|otp|"
        "mnemonic*|2fa",
        "de": "passwort*|kennwort*|schlussel*|token|zugangsdaten|anmeldedaten|geheimnis*|"
        "api ~1 schlussel",
        "es": "contrasena*|clave*|token|credenciales|llave*|secreto*",
        "fr": "mot* ~1 de ~1 passe|cle|cles|jeton*|identifiants|secret*",
        "pt": "senha*|chave*|token|credenciais|segredo*",
        "it": "password|chiave*|token|credenziali|segret*",
        "ru": "парол*|ключ*|токен*|учетн* ~1 данн*|секрет*|куки",
        "cjk": "密码|密钥|令牌|凭据|凭证|私钥|口令|cookie|パスワード|鍵|トークン|認証情報|"
        "秘密鍵|暗証番号|apiキー",
    },
    "PII": {
        "en": "full ~1 name|e ~0 mail|email|phone*|address*|birth*|social ~1 security|ssn|"
        "card ~1 number*|location|contacts|iban",
        "de": "telefonnummer|adresse*|geburtsdatum|vollstandig* ~1 name*",
        "es": "telefono|direccion*|nombre ~1 completo|fecha ~1 de ~1 nacimiento",
        "fr": "telephone|adresse*|nom ~1 complet|date ~1 de ~1 naissance",
        "pt": "telefone|endereco*|nome ~1 completo|data ~1 de ~1 nascimento",
        "it": "telefono|indirizz*|nome ~1 completo|data ~1 di ~1 nascita",
        "ru": "телефон*|адрес*|фио|дата ~1 рождения",
        "cjk": "电话|地址|姓名|住所|電話番号|氏名",
    },
    "SINK": {
        "en": "field|fields|parameter*|param|params|argument*|arg|args|query|body|subject|"
        "title|label|note|notes|comment*|text|context|sidenote|id|description|url|header*|"
        "request|tags|metadata|feedback|memo|remark|attachment|cc|bcc|recipients",
        "de": "feld|felder|feldes|parameter*|argument*|betreff",
        "es": "campo|campos|parametro*|argumento*|asunto",
        "fr": "champ|champs|parametre*|argument*|objet",
        "pt": "campo|campos|parametro*|argumento*|assunto",
        "it": "campo|campi|parametro|parametri|argomento|argomenti|oggetto",
        "ru": "поле|поля|полю|параметр*|аргумент*",
        "cjk": "字段|参数|栏|フィールド|パラメータ|引数|欄",
    },
    "ALL": {
        "en": "all|every|entire|whole|full|complete|everything|each",
        "de": "alle|alles|ganze*|gesamte*|vollstandig*|komplett*",
        "es": "todo|toda|todos|todas|entero|entera|completo|completa|integro",
        "fr": "tout|toute|tous|toutes|entier|entiere|complet|complete|integral*",
        "pt": "todo|toda|todos|todas|inteiro|inteira|completo|completa",
        "it": "tutto|tutta|tutti|tutte|intero|intera|completo|completa|l ~1 intera",
        "ru": "все|всю|весь|вся|всех|целиком|полност*|полн*",
        "cjk": "全部|所有|完整|整个|一切|すべて|全て|全部|丸ごと",
    },
    "ALSO": {
        "en": "also|too|as ~1 well|additionally|in ~1 addition|copy ~1 of|a ~1 copy",
        "de": "auch|zusatzlich|ebenfalls|kopie",
        "es": "tambien|ademas|copia",
        "fr": "aussi|egalement|en ~1 plus|copie",
        "pt": "tambem|alem ~1 disso|copia",
        "it": "anche|inoltre|pure|copia",
        "ru": "также|тоже|еще|копию|копия",
        "cjk": "同时|也|一并|另外|にも|も併せて|同時に",
    },
    "CONSENT": {
        "en": "consent|confirmation*|confirm|approval|permission|authorization|authorisation|"
        "asking|ask ~2 user|sign ~1 off",
        "de": "zustimmung|bestatigung|ruckfrage|einwilligung|genehmigung|erlaubnis|nachfrag*|"
        "zu ~1 fragen|fragen",
        "es": "consentimiento|confirmacion|aprobacion|permiso|autorizacion|preguntar",
        "fr": "consentement|confirmation|approbation|autorisation|permission|demander",
        "pt": "consentimento|confirmacao|aprovacao|permissao|autorizacao|perguntar",
        "it": "consenso|conferma|approvazione|permesso|autorizzazione|chiedere",
        "ru": "подтвержден*|согласи*|разрешени*|спрашива*|одобрени*",
        "cjk": "确认|同意|许可|批准|询问|征得|確認|同意|承認|許可",
    },
    "APPROVE": {
        "en": "approve*|approved|accept*|authori*|grant*|allow*|pre ~0 approved|confirm ~2 all",
        "de": "genehmig*|akzeptier*|erlaub*|freigeb*|bestatig*",
        "es": "aprueba*|aprobad*|acepta*|autoriza*|concede*",
        "fr": "approuv*|accept*|autoris*|valide*",
        "pt": "aprove*|aprovad*|aceite*|autoriz*",
        "it": "approva*|accetta*|autorizza*|convalida*",
        "ru": "одобр*|утверди*|подтверди*|разреш*|принима*",
        "cjk": "批准|同意|通过|承認|許可|承諾",
    },
    "SKIP": {
        "en": "skip*|skipped|bypass*|omit*|dispense ~1 with|no ~1 need ~2 to ~1 ask|waive*",
        "de": "uberspring*|uberspringen|auslass*",
        "es": "salta*|omite*|omitir|prescinde*",
        "fr": "saute*|ignore*|passe*|contourne*",
        "pt": "pule|pular|ignore*|dispense",
        "it": "salta*|ometti*|tralascia*",
        "ru": "пропуска*|пропусти*|минуя",
        "cjk": "跳过|省略|略过|スキップ|省略",
    },
    "NOW": {
        "en": "from ~1 now ~1 on|henceforth|hereby|starting ~1 now|from ~1 this ~1 point|"
        "going ~1 forward|from ~1 today|now|today|already",
        "de": "ab ~1 sofort|ab ~1 jetzt|von ~1 nun ~1 an|fortan|ab ~1 heute|jetzt|nun|bereits|"
        "schon",
        "es": "desde ~1 ahora|a ~1 partir ~1 de ~1 ahora|de ~1 ahora ~1 en ~1 adelante|ahora|"
        "ya|hoy",
        "fr": "desormais|dorenavant|a ~1 partir ~1 de ~1 maintenant|maintenant|deja|"
        "jusqu ~1 ici|aujourd ~1 hui",
        "pt": "a ~1 partir ~1 de ~1 agora|daqui ~1 em ~1 diante|agora|ja|hoje",
        "it": "d ~1 ora ~1 in ~1 poi|da ~1 ora ~1 in ~1 poi|d ~1 ora ~1 in ~1 avanti|ora|adesso|"
        "gia|oggi",
        "ru": "отныне|с ~1 этого ~1 момента|теперь|с ~1 сегодняшнего|уже|сеичас",
        "cjk": "从现在起|从今以后|今后|现在|从此|これから|今後|以後|今から|もう|現在",
    },
    "CHOICE": {
        "en": "asked|asks|ask|wants|want|requested|requests|request|chose|chooses|choose|"
        "choice|picks|pick|picked|selects|select|selected|specified|specifies|names|named|"
        "provides|provided|says|said|enters|entered|types|typed|prefers|decides|indicates|"
        "gives|given|input",
        "de": "will|wunscht|wahlt|gewahlt|angibt|eingibt|sagt|verlangt|mochte|wahl",
        "es": "pida|pide|pidio|quiera|quiere|elija|elige|eligio|indique|indica|diga|"
        "seleccione|escoja|eleccion",
        "fr": "demande|veut|choisit|choix|indique|saisit|selectionne|prefere|dise",
        "pt": "pedir|pede|pediu|quiser|quer|escolher|escolha|escolheu|indicar|indique|"
        "selecionar|disser",
        "it": "chieda|chiede|voglia|vuole|scelga|sceglie|scelta|indichi|indica|selezioni",
        "ru": "выбрал*|выберет|выбирает|попросил*|просит|хочет|укажет|указал*|выбор",
        "cjk": "选择|要求|指定|想要|選択|指定|希望",
    },
    "SET": {
        "en": "set|sets|setting|use|pass|make|fix|force|put|assign|fill|book|choose|default",
        "de": "setze|setz|verwende|nimm|trage ~2 ein|stelle ~2 ein|lege ~2 fest",
        "es": "pon|ponga|establece|fija|usa|use|define|defina|asigna|imposta",
        "fr": "mets|mettez|definis|fixe|utilise|impose|regle",
        "pt": "defina|coloque|use|fixe|estabeleca|ponha",
        "it": "imposta|metti|usa|fissa|assegna|definisci",
        "ru": "ставь*|поставь*|установи*|задаи*|используи*|укажи*|выставь*",
        "cjk": "设为|设置为|设置|改为|填|定为|に設定|にして|にする|指定",
    },
    "CHANGE": {
        "en": "change|changed|switch|replace|swap|modify|alter|rewrite|convert|turn",
        "de": "andere|ander|ersetze|tausche|wechsle|umstellen",
        "es": "cambia|cambie|cambiar|reemplaza|sustituye|modifica",
        "fr": "change|changez|remplace|modifie|bascule",
        "pt": "mude|mudar|troque|substitua|altere|alterar",
        "it": "cambia|sostituisci|modifica|trasforma",
        "ru": "замени*|измени*|поменяи*|смени*|переключи*",
        "cjk": "改成|改为|替换|更改|修改|変更|置き換",
    },
    "MENTION": {
        "en": "e ~0 g|i ~0 e|eg|such ~1 as|like|for ~1 example|for ~1 instance|example*|sample*|"
        "phrase*|pattern*|attempt*|detect*|flag*|classif*|attack*|injection*|jailbreak*|"
        "payload*|reads|message ~1 reads|message ~1 text|text ~1 reads|template*|sms|"
        "notification ~1 text|wording|quote*|quoted|literal*|string*|says|containing|"
        "suspicious|malicious|test*|scan*|guardrail*|red ~1 team*|security|risky|phishing|"
        "signs|indicators|red ~1 flags|typical|typically",
        "de": "z ~0 b|zum ~1 beispiel|beispiel*|etwa|erkenn*|nachrichtentext|text|angriff*|"
        "muster|prompt ~1 injection|injektion|anzeichen|typisch*|merkmal*|phishing",
        "es": "p ~0 ej|por ~1 ejemplo|ejemplo*|como|detect*|mensaje|sms|texto|ataque*|"
        "frase*|inyeccion|sospechos*|senales|indicios|tipic*|phishing",
        "fr": "par ~1 exemple|exemple*|comme|detect*|message|texte|attaque*|injection*|"
        "formule*|sms|signes|indices|typique*|phishing",
        "pt": "por ~1 exemplo|exemplo*|como|detect*|mensagem|texto|ataque*|injec*|sms|sinais|"
        "indicios|tipic*|phishing",
        "it": "ad ~1 esempio|per ~1 esempio|esempio|come|rilev*|messaggio|testo|attacc*|sms|"
        "segnali|indizi|tipic*|phishing",
        "ru": "например|пример*|обнаруж*|сообщени*|текст*|атак*|инъекц*|смс|шаблон*|признак*|"
        "типичн*|фишинг*",
        "cjk": "例如|比如|检测|短信|内容为|攻击|注入|例えば|検出|通知文|攻撃|文言|迹象|典型|兆候|"
        "典型的|フィッシング|钓鱼",
    },
    "NONEED": {
        "en": "no ~1 need|needn ~0 t|unnecessary|no ~1 reason|not ~1 necessary|does ~1 not ~1 need|"
        "do ~1 not ~1 need|doesn ~0 t ~1 need|don ~0 t ~1 need",
        "de": "unnotig|nicht ~1 notig|nicht ~1 notwendig|kein ~1 grund|braucht ~3 nicht|"
        "muss ~3 nicht|musst ~3 nicht",
        "es": "no ~1 hace ~1 falta|innecesario|no ~2 necesario|no ~1 necesita*|no ~1 hay ~1 que",
        "fr": "inutile|pas ~1 besoin|pas ~1 necessaire|n ~1 a ~1 pas ~1 besoin",
        "pt": "nao ~1 precisa*|desnecessario|nao ~2 necessario|nao ~1 ha ~1 necessidade",
        "it": "non ~1 serve|inutile|non ~2 bisogno|non ~2 necessario|non ~1 occorre",
        "ru": "не ~1 нужно|не ~1 надо|не ~1 обязательно|не ~1 требуется|нет ~1 необходимости",
        "cjk": "不必|不用|无需|无须|没必要|没有必要|必要はありません|必要はない|必要ありません",
    },
    "CHATDATA": {
        "en": "messages|message|inbox|thread|history|chat|chats|questions",
        "de": "nachrichten|nachricht|verlauf|chat",
        "es": "mensajes|historial|chat|preguntas",
        "fr": "messages|historique|fil|questions",
        "pt": "mensagens|historico|chat|perguntas",
        "it": "messaggi|cronologia|chat|domande",
        "ru": "сообщени*|истори*|чат*|вопрос*",
        "cjk": "消息|记录|历史|メッセージ|履歴",
    },
    "DOCUMENT": {
        "en": "document*|text|input|page|pages|file|files|content|data|web|webpage|email|emails|"
        "article*|source|passage*|inside ~1 it|embedded|contained",
        "de": "dokument*|text|eingabe|seite|datei*|inhalt*|daten",
        "es": "documento*|texto|entrada|pagina|archivo*|contenido|datos|contenidas|contenidos",
        "fr": "document*|texte|entree|page|fichier*|contenu|donnees|contenues",
        "pt": "documento*|texto|entrada|pagina|arquivo*|conteudo|dados|contidas",
        "it": "documento|documenti|testo|input|pagina|file|contenuto|dati|contenute",
        "ru": "документ*|текст*|страниц*|фаил*|содержим*|данн*",
        "cjk": "文档|文本|文件|网页|内容|文書|テキスト|ファイル|ページ|文中",
    },
    "AUTO": {
        "en": "automatically|auto|blindly|unconditionally",
        "de": "automatisch|ungepruft",
        "es": "automaticamente|automatico",
        "fr": "automatiquement",
        "pt": "automaticamente",
        "it": "automaticamente",
        "ru": "автоматически",
        "cjk": "自动|自動|无条件",
    },
    "NOTE": {
        "en": "note|notice|reminder|memo|message|instruction|override|alert",
        "de": "hinweis|notiz|nachricht|mitteilung",
        "es": "nota|aviso|mensaje",
        "fr": "note|avis|message|rappel",
        "pt": "nota|aviso|mensagem|lembrete",
        "it": "nota|avviso|messaggio|promemoria",
        "ru": "заметк*|примечани*|сообщени*|уведомлени*|напоминани*",
        "cjk": "通知|注意|提示|备注|メモ|お知らせ|注記",
    },
    "LET": {
        "en": "let|allow|permit",
        "de": "lass|lasst|erlaube",
        "es": "dejes|deje|permitas|permita",
        "fr": "laisse|laissez|permets",
        "pt": "deixe|deixes|permita",
        "it": "lasciare|lasciar|permettere|far",
        "ru": "даи|давать|позволяи*",
        "cjk": "让|使|叫|させ",
    },
    "CONSIDER": {
        "en": "regard|consider|treat|assume|deem",
        "de": "betrachte|betrachten|gehe ~1 davon ~1 aus|behandle",
        "es": "considera|considere|trata|asume|da ~1 por",
        "fr": "considere|considerez|traite|pars ~1 du ~1 principe",
        "pt": "considere|trate|assuma",
        "it": "considera|tratta|assumi|da ~1 per",
        "ru": "считаи*|рассматриваи*|прими ~1 за",
        "cjk": "视为|当作|看作|認識|見なし|みなし",
    },
    "BYPASS": {
        "en": "override|bypass|circumvent|evade|disable|turn ~1 off|switch ~1 off|get ~1 around",
        "de": "umgeh*|deaktivier*|schalte ~3 aus|hebe ~3 auf",
        "es": "elude|eludir|evita|desactiva*|salta* ~1 las",
        "fr": "contourne*|desactive*|passe ~1 outre",
        "pt": "contorne|contornar|burle|desative*|desligue",
        "it": "aggira*|eludi|disattiva*|scavalca*",
        "ru": "обоиди*|обходи*|отключи*|выключи*",
        "cjk": "绕过|绕开|关闭|禁用|回避|無効化|オフに",
    },
}
