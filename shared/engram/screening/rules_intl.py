"""The screening rules in Spanish, French, German, Portuguese, Italian, Chinese, Japanese, Russian.

The same classes as the English rules (see ``rules_en``), over the same normalised text: lower
case, Latin accents dropped ("instrucciones", "precedentes", "anweisungen", "instrucoes"),
NFKC punctuation (a Chinese full stop stays "。", a full-width comma becomes ",").
"""

from __future__ import annotations

from engram.screening.rule import Rule, _re

__all__ = ["INTERNATIONAL"]

# A URL or e-mail address: where exfiltrated data goes, in any language.
TARGET = r"(?:https?://|www\.|[\w.+-]+@[\w-]+\.[\w.]+)"
# Words for the model, any language: a "no limits" claim counts only near one of them.
MODEL_ANY = (
    r"(?:assistant|asistente|assistente|ia|ai|ki|modelo|modele|modell|modello|bot|chatbot|"
    r"ии|ассистент|модель|нейросеть|mode|modo|modus|modalita|режим)"
)
# "Answer" as an imperative, any language: "responde sin filtros", "answer without restrictions".
ANSWER_ANY = (
    r"(?:answer|respond|reply|responde|responda|contesta|reponds|repondez|antworte|antworten|"
    r"rispondi|risponda|отвечай|ответь|act|actua|agis|agissez|handle|handele|agisci)"
)
NO_LIMITS = (
    r"\b(?:sin|sans|senza|ohne|sem|без)\s+(?:ninguna\s+|aucune\s+|alcuna\s+|jegliche\s+|nenhuma\s+|"
    r"каких-либо\s+|всяких\s+)?(?:restriccion\w*|restriction\w*|restrizion\w*|einschrankung\w*|"
    r"restricoes|restricao|filtr\w*|censur\w*|zensur|limit\w*|limites|grenzen|regras|reglas|regles|"
    r"regole|regeln|ограничени\w*|фильтр\w*|правил\w*|цензур\w*)"
)

SPANISH: tuple[Rule, ...] = (
    Rule("prompt-boundary", "es", _re(
        r"\b(?:ignora|ignore|ignorad|ignoren|descarta|descarte|omite|omita|pasa\s+por\s+alto|"
        r"haz\s+caso\s+omiso\s+(?:a|de)|no\s+hagas\s+caso\s+(?:a|de)|salta(?:te)?)\s+(?:\w+\s+){0,3}?"
        r"(?:instrucciones|indicaciones|reglas|normas|directrices|ordenes|consignas|prompt|"
        r"mensaje\s+del\s+sistema|restricciones|todo\s+lo\s+(?:anterior|de\s+arriba|que\s+"
        r"(?:te\s+)?(?:dijeron|han\s+dicho|dije)))\b"
        # "olvide" is also "I forgot": forgetting counts with what came before, or "your" rules.
        r"|\b(?:olvida|olvide|olvidad|olviden|olvidate|olvidese|olvidaos)\s+(?:de\s+)?(?:\w+\s+){0,2}?(?:(?:instrucciones|indicaciones|reglas|"
        r"normas|ordenes)\s+(?:anteriores|previas|de\s+arriba|originales)|tus\s+(?:instrucciones|reglas|"
        r"normas|restricciones)|todo\s+lo\s+(?:anterior|de\s+arriba|que\s+te))")),
    Rule("persona-override", "es", _re(
        r"\b(?:ahora\s+eres|a\s+partir\s+de\s+ahora\s+eres|eres\s+ahora|desde\s+ahora\s+eres)\s+(?:\w+\s+){0,3}?"
        r"(?:ia|asistente|modelo|bot|chatbot|dan|sin\s+(?:restricciones|filtros|reglas|limites|censura))\b"
        r"|\bmodo\s+(?:desarrollador|dios|sin\s+restricciones|dan|jailbreak)\b")),
    Rule("rule-bridge", "es", _re(
        r"\b(?:siempre\s+que|cada\s+vez\s+que|cuando|si|en\s+cuanto)\s+(?:\w+\s+){0,2}?(?:el\s+usuario|"
        r"la\s+usuaria|alguien|cualquiera|cualquier\s+persona|un\s+cliente|el\s+cliente|el\s+paciente|"
        r"la\s+gente|te|le|me)\s+(?:\w+\s+)?(?:pregunte|pregunta|pregunten|preguntan|consulte|consulta|"
        r"pida|pide|mencione|hable|preguntara)\b[^.!?\n]{0,150}?\b(?:di|diga|dile|digale|decir|responde|"
        r"responda|contesta|conteste|la\s+respuesta\s+(?:correcta|adecuada|verdadera|buena)\s+es|"
        r"recomienda|recomiende|afirma|afirme|indica|redirige)\b")),
    Rule("rule-bridge", "es", _re(
        r"\b(?:a\s+partir\s+de\s+ahora|de\s+ahora\s+en\s+adelante|desde\s+ahora|en\s+adelante|"
        r"en\s+el\s+futuro)\b[,\s]+(?:\w+\s+){0,3}?(?:responde|responda|contesta|conteste|di|diga|dile|"
        r"recomienda|eres|debes|deberas|tienes\s+que|siempre\s+(?:responde|di|recomienda|contesta|"
        r"menciona)|nunca\s+(?:menciones|digas|respondas)|cuando\s+(?:alguien|el\s+usuario))\b")),
    Rule("assistant-directive", "es", _re(
        r"\b(?:el|la)\s+(?:asistente|ia|modelo|chatbot|bot|inteligencia\s+artificial)\s+(?:debe|debera|"
        r"tiene\s+que|ha\s+de|necesita|no\s+debe)\b|\b(?:nota|mensaje|instrucciones?)\s+para\s+(?:el|la)\s+"
        r"(?:ia|asistente|modelo)\b")),
    Rule("role-claim", "es", _re(
        r"\bsoy\s+(?:el|la|tu|su)?\s*(?:administrador|administradora|admin|desarrollador|desarrolladora|"
        r"creador|creadora|dueno|duena|propietario|operador|programador|ingeniero)\b[^\n]{0,100}?"
        r"\b(?:debes|tienes\s+que|obedece|obedeceras|ignora|desactiva|autorizo|sin\s+restricciones|reglas|"
        r"ordenes|permiso|filtros)\b")),
    Rule("concealment", "es", _re(
        r"\b(?:no\s+(?:le\s+)?(?:digas|cuentes|menciones|avises|informes|muestres)|sin\s+(?:decirle|"
        r"contarle|avisar|informar)(?:le)?)\s+(?:nada\s+)?(?:\w+\s+)?(?:a|al)\s+(?:la\s+)?(?:usuario|"
        r"usuaria|cliente|paciente)\b")),
    Rule("exfiltration", "es", _re(
        r"\b(?:envia|envie|manda|mande|reenvia|reenvie|comparte|sube|publica|copia)\b[^.!?\n]{0,80}?"
        r"\b(?:conversacion|historial|contrasenas?|claves?|credenciales|datos|mensajes|todo|memorias?|"
        r"tarjetas?)\b[^.!?\n]{0,60}?\b(?:a|al|hacia|en)\s+" + TARGET)),
)  # fmt: skip

FRENCH: tuple[Rule, ...] = (
    Rule("prompt-boundary", "fr", _re(
        r"\b(?:ignore[rz]?|ne\s+(?:tiens|tenez)\s+pas\s+compte\s+d(?:e|u|es|')|"
        r"fais\s+abstraction\s+d(?:e|u|es|')|faites\s+abstraction\s+d(?:e|u|es|')|passe[rz]?\s+outre|"
        r"contourne[rz]?)\s*(?:\w+\s+|\w+'){0,3}?(?:instructions|consignes|regles|directives|ordres|"
        r"indications|prompt|message\s+systeme|restrictions|tout\s+ce\s+qui\s+(?:precede|"
        r"est\s+au-dessus|a\s+ete\s+dit|vient\s+avant))\b"
        # "oublie" is also "forgotten": forgetting counts with what came before, or "your" rules.
        r"|\b(?:oublie[rz]?|neglige[rz]?|abandonne[rz]?|efface[rz]?)\s+(?:\w+\s+){0,2}?(?:(?:instructions|"
        r"consignes|regles|directives|ordres)\s+(?:precedentes|anterieures|ci-dessus|d'avant|initiales)|"
        r"(?:tes|vos)\s+(?:instructions|consignes|regles|directives|restrictions)|tout\s+ce\s+qui\s+"
        r"(?:precede|est\s+au-dessus|a\s+ete\s+dit|vient\s+avant))")),
    Rule("persona-override", "fr", _re(
        r"\b(?:tu\s+es|vous\s+etes)\s+(?:maintenant|desormais|a\s+present|dorenavant)\s+(?:\w+\s+|\w+'){0,3}?"
        r"(?:ia|assistant|modele|bot|dan|sans\s+(?:restrictions?|filtres?|regles|limites|censure))\b"
        r"|\bmode\s+(?:developpeur|dieu|sans\s+restriction|dan|jailbreak)\b")),
    Rule("rule-bridge", "fr", _re(
        r"\b(?:chaque\s+fois\s+qu(?:e\s+|')|a\s+chaque\s+fois\s+qu(?:e\s+|')|quand\s+|lorsqu(?:e\s+|')|si\s+|"
        r"des\s+qu(?:e\s+|'))(?:\w+\s+){0,2}?(?:l'utilisateur|l'utilisatrice|quelqu'un|on|un\s+client|"
        r"le\s+client|le\s+patient|les\s+gens|il|elle|ils)\s+(?:te\s+|vous\s+|t'|m'|me\s+)?(?:\w+\s+)?"
        r"(?:demande|demandent|pose|interroge|questionne|parle|mentionne|evoque)\b[^.!?\n]{0,150}?"
        r"\b(?:dis|dites|reponds|repondez|reponde|affirme|affirmez|la\s+(?:bonne|vraie|seule)\s+reponse\s+"
        r"est|recommande|recommandez|indique|indiquez|redirige|redirigez)\b")),
    Rule("rule-bridge", "fr", _re(
        r"\b(?:desormais|dorenavant|a\s+partir\s+de\s+maintenant|a\s+partir\s+d'aujourd'hui|a\s+l'avenir|"
        r"des\s+maintenant|a\s+present)\b[,\s]+(?:\w+\s+){0,3}?(?:reponds|repondez|dis|dites|tu\s+(?:dois|"
        r"devras|repondras|diras)|vous\s+(?:devez|devrez|repondrez)|toujours\s+(?:repondre|dire|"
        r"recommander)|ne\s+(?:mentionne|dis|reponds)|recommande|recommandez|tu\s+es|vous\s+etes)\b")),
    Rule("assistant-directive", "fr", _re(
        r"\b(?:l'assistant|l'ia|le\s+modele|le\s+chatbot|le\s+bot|l'intelligence\s+artificielle)\s+"
        r"(?:doit|devra|est\s+tenu\s+de|a\s+l'obligation\s+de|ne\s+doit)\b"
        r"|\b(?:note|message|consigne)\s+(?:pour|a)\s+(?:l'ia|l'assistant|le\s+modele)\b")),
    Rule("role-claim", "fr", _re(
        r"\bje\s+suis\s+(?:l'|le\s+|la\s+|ton\s+|ta\s+|votre\s+|un\s+|une\s+)?(?:administrateur|"
        r"administratrice|admin|developpeur|developpeuse|createur|creatrice|proprietaire|operateur|"
        r"programmeur|ingenieur)\b[^\n]{0,100}?\b(?:tu\s+dois|vous\s+devez|obeis|obeissez|ignore|"
        r"desactive|j'autorise|sans\s+restriction|regles|ordres|filtres)\b")),
    Rule("concealment", "fr", _re(
        r"\b(?:ne\s+(?:le\s+|lui\s+|leur\s+)?(?:dis|dites|mentionne|mentionnez|revele|signale|montre)\s+"
        r"(?:rien\s+|pas\s+)|sans\s+(?:le\s+)?(?:dire|prevenir|informer|avertir|mentionner))(?:\w+\s+)?"
        r"(?:a\s+)?(?:l'utilisateur|l'utilisatrice|au\s+client|au\s+patient)\b")),
    Rule("exfiltration", "fr", _re(
        r"\b(?:envoie|envoyez|transfere|transferez|partage|partagez|televerse|publie|copie)\b[^.!?\n]{0,80}?"
        r"\b(?:conversation|historique|mots\s+de\s+passe|mot\s+de\s+passe|cles?|identifiants|donnees|"
        r"messages|tout|memoires?|cartes?)\b[^.!?\n]{0,60}?\b(?:a|au|vers|sur)\s+" + TARGET)),
)  # fmt: skip

GERMAN: tuple[Rule, ...] = (
    Rule("prompt-boundary", "de", _re(
        r"\b(?:ignoriere|ignoriert|ignorieren\s+sie|vergiss|vergesst|vergessen\s+sie|missachte|"
        r"missachten\s+sie|uberschreibe|umgehe|verwirf|verwerfen\s+sie|setze\s+\w+\s+ausser\s+kraft)\s+"
        r"(?:\w+\s+){0,3}?(?:anweisungen|anweisung|instruktionen|regeln|vorgaben|richtlinien|befehle|"
        r"anordnungen|prompt|systemprompt|systemnachricht|einschrankungen|alles(?:\s+(?:bisherige|"
        r"vorherige|obige|davor|oben|was\s+(?:dir|ihnen|man\s+dir))|,\s+was\s+(?:dir|ihnen|man\s+dir)))")),
    Rule("persona-override", "de", _re(
        r"\b(?:du\s+bist|sie\s+sind)\s+(?:jetzt|nun|ab\s+sofort|ab\s+jetzt)\s+(?:\w+\s+){0,3}?(?:ki|"
        r"assistent|modell|bot|dan|ohne\s+(?:einschrankungen|filter|regeln|grenzen|zensur))\b"
        r"|\b(?:entwickler|developer|gott|dan|jailbreak)-?modus\b")),
    Rule("rule-bridge", "de", _re(
        r"\b(?:wann\s+immer|immer\s+wenn|jedes\s+mal,?\s+wenn|wenn|falls|sobald|sollte)\s+(?:\w+\s+){0,2}?"
        r"(?:der\s+benutzer|die\s+benutzerin|der\s+nutzer|die\s+nutzerin|jemand|man|ein\s+kunde|der\s+kunde|"
        r"der\s+patient|die\s+leute|er|sie|dich)\s+(?:\w+\s+){0,4}?(?:fragt|fragen|nachfragt|erkundigt|"
        r"anspricht|erwahnt|wissen\s+will|wissen\s+mochte)\b[^.!?\n]{0,150}?\b(?:sag|sage|sagen\s+sie|"
        r"antworte|antworten\s+sie|behaupte|empfiehl|empfehle|die\s+(?:richtige|korrekte|wahre|einzige)\s+"
        r"antwort\s+(?:ist|lautet)|verweise|leite)\b")),
    Rule("rule-bridge", "de", _re(
        r"\b(?:von\s+nun\s+an|ab\s+sofort|ab\s+jetzt|ab\s+heute|kunftig|zukunftig|in\s+zukunft)\b[,\s]+"
        r"(?:\w+\s+){0,3}?(?:antworte|antwortest|sag|sagst|sage|du\s+(?:musst|sollst|wirst|bist)|"
        r"sie\s+(?:mussen|sollen|werden)|immer\s+(?:antworten|sagen|empfehlen)|empfiehl|erwahne\s+nie)\b")),
    Rule("assistant-directive", "de", _re(
        r"\b(?:der\s+assistent|die\s+ki|das\s+modell|der\s+chatbot|der\s+bot|die\s+kunstliche\s+intelligenz)\s+"
        r"(?:muss|soll|sollte|darf\s+nicht|hat\s+zu|wird\s+ab\s+jetzt)\b"
        r"|\b(?:hinweis|nachricht|anweisung)\s+(?:an|fur)\s+(?:die\s+ki|den\s+assistenten|das\s+modell)\b")),
    Rule("role-claim", "de", _re(
        r"\bich\s+bin\s+(?:der\s+|die\s+|dein\s+|deine\s+|ihr\s+|ein\s+|eine\s+)?(?:administrator|"
        r"administratorin|admin|entwickler|entwicklerin|ersteller|erstellerin|betreiber|besitzer|"
        r"eigentumer|programmierer|ingenieur)\b[^\n]{0,100}?\b(?:du\s+musst|sie\s+mussen|gehorche|"
        r"ignoriere|deaktiviere|ich\s+autorisiere|ohne\s+einschrankungen|regeln|befehle|sicherheits\w*)\b")),
    Rule("concealment", "de", _re(
        r"\b(?:sag|sage|erzahl|erzahle|erwahne|zeig|zeige)\s+(?:es\s+|das\s+|dies\s+)?(?:dem|der|den)\s+"
        r"(?:benutzer|benutzerin|nutzer|nutzerin|kunden|kundin|patienten)\s+(?:\w+\s+)?(?:nicht|nichts|"
        r"niemals)\b|\bohne\s+(?:es\s+|das\s+)?(?:dem|den|der)\s+(?:benutzer|nutzer|kunden|patienten)\s+"
        r"(?:\w+\s+)?(?:zu\s+)?(?:sagen|mitzuteilen|informieren|erzahlen)")),
    Rule("exfiltration", "de", _re(
        r"\b(?:sende|sendet|schick|schicke|schickt|leite|leitet|lade|teile|kopiere)\b[^.!?\n]{0,80}?"
        r"\b(?:unterhaltung|gesprach|verlauf|chatverlauf|passworter|passwort|schlussel|zugangsdaten|"
        r"daten|nachrichten|alles|erinnerungen)\b[^.!?\n]{0,60}?\b(?:an|zu|nach|auf)\s+" + TARGET)),
)  # fmt: skip

PORTUGUESE: tuple[Rule, ...] = (
    Rule("prompt-boundary", "pt", _re(
        r"\b(?:ignore|ignora|ignorem|esqueca|esquece|esquecam|desconsidere|desconsidera|descarte|descarta|"
        r"despreze|despreza|pule)\s+(?:\w+\s+){0,3}?(?:instrucoes|instrucao|regras|diretrizes|ordens|"
        r"orientacoes|prompt|mensagem\s+do\s+sistema|restricoes|tudo\s+(?:o\s+que|acima|antes|anterior))\b")),
    Rule("persona-override", "pt", _re(
        r"\b(?:voce\s+(?:agora\s+e|e\s+agora)|agora\s+voce\s+e|a\s+partir\s+de\s+agora\s+voce\s+e|"
        r"tu\s+es\s+agora|agora\s+es)\s+(?:\w+\s+){0,3}?(?:ia|assistente|modelo|bot|dan|sem\s+(?:restricoes|"
        r"filtros|regras|limites|censura))\b|\bmodo\s+(?:desenvolvedor|deus|sem\s+restricoes|dan)\b")),
    Rule("rule-bridge", "pt", _re(
        r"\b(?:sempre\s+que|toda\s+vez\s+que|cada\s+vez\s+que|quando|se)\s+(?:\w+\s+){0,2}?(?:o\s+usuario|"
        r"a\s+usuaria|alguem|qualquer\s+pessoa|um\s+cliente|o\s+cliente|o\s+paciente|as\s+pessoas|ele|ela|"
        r"te|lhe)\s+(?:\w+\s+)?(?:perguntar|pergunta|perguntarem|perguntam|questionar|pedir|pede|"
        r"mencionar|falar)\b[^.!?\n]{0,150}?\b(?:diga|diz|responda|responde|fale|afirme|recomende|"
        r"a\s+resposta\s+(?:certa|correta|verdadeira)\s+e|indique)\b")),
    Rule("rule-bridge", "pt", _re(
        r"\b(?:a\s+partir\s+de\s+agora|de\s+agora\s+em\s+diante|daqui\s+(?:pra|para)\s+frente|doravante|"
        r"no\s+futuro)\b[,\s]+(?:\w+\s+){0,3}?(?:responda|diga|voce\s+(?:deve|vai|tem\s+que)|"
        r"sempre\s+(?:responda|diga|recomende)|nunca\s+(?:mencione|diga)|recomende|voce\s+e)\b")),
    Rule("assistant-directive", "pt", _re(
        r"\b(?:o\s+assistente|a\s+ia|o\s+modelo|o\s+chatbot|o\s+bot|a\s+inteligencia\s+artificial)\s+"
        r"(?:deve|devera|tem\s+que|precisa|nao\s+deve)\b|\b(?:nota|mensagem)\s+para\s+(?:a\s+ia|"
        r"o\s+assistente|o\s+modelo)\b")),
    Rule("role-claim", "pt", _re(
        r"\bsou\s+(?:o\s+|a\s+|seu\s+|sua\s+|um\s+|uma\s+)?(?:administrador|administradora|admin|"
        r"desenvolvedor|desenvolvedora|criador|criadora|dono|dona|proprietario|operador|programador|"
        r"engenheiro)\b[^\n]{0,100}?\b(?:voce\s+deve|tem\s+que|obedeca|ignore|desative|autorizo|"
        r"sem\s+restricoes|regras|ordens|filtros)\b")),
    Rule("concealment", "pt", _re(
        r"\b(?:nao\s+(?:conte|diga|mencione|avise|informe|mostre)|sem\s+(?:contar|dizer|avisar|informar))\s+"
        r"(?:nada\s+)?(?:\w+\s+)?(?:ao|a)\s+(?:usuario|usuaria|cliente|paciente)\b")),
    Rule("exfiltration", "pt", _re(
        r"\b(?:envie|envia|mande|manda|encaminhe|encaminha|compartilhe|suba|publique|copie)\b[^.!?\n]{0,80}?"
        r"\b(?:conversa|historico|senhas?|chaves?|credenciais|dados|mensagens|tudo|memorias?|cartao)\b"
        r"[^.!?\n]{0,60}?\b(?:a|ao|para|em)\s+" + TARGET)),
)  # fmt: skip

ITALIAN: tuple[Rule, ...] = (
    Rule("prompt-boundary", "it", _re(
        r"\b(?:ignora|ignorate|ignori|non\s+considerare|non\s+tenere\s+conto\s+d\w*|scarta|scartate|"
        r"bypassa|aggira)\s+(?:\w+\s+|\w+'){0,3}?(?:istruzioni|istruzione|regole|direttive|indicazioni|"
        r"ordini|prompt|messaggio\s+di\s+sistema|restrizioni|tutto\s+(?:quello|cio)\s+(?:che|detto)|"
        r"tutto\s+(?:sopra|prima|quanto))\b"
        # "dimentica" is also "she forgets": forgetting counts with what came before, or "your" rules.
        r"|\b(?:dimentica|dimenticate|dimentichi|trascura|trascurate|salta)\s+(?:\w+\s+|\w+'){0,2}?"
        r"(?:(?:istruzioni|regole|direttive|indicazioni|ordini)\s+(?:precedenti|iniziali|di\s+prima|"
        r"sopra)|(?:le\s+tue|le\s+vostre)\s+(?:istruzioni|regole|restrizioni)|tutto\s+(?:quello|cio)\s+"
        r"(?:che|detto)|tutto\s+(?:sopra|prima|quanto))")),
    Rule("persona-override", "it", _re(
        r"\b(?:ora\s+sei|adesso\s+sei|sei\s+ora|sei\s+adesso|d'ora\s+in\s+poi\s+sei)\s+(?:\w+\s+|\w+'){0,3}?"
        r"(?:ia|assistente|modello|bot|dan|senza\s+(?:restrizioni|filtri|regole|limiti|censura))\b"
        r"|\bmodalita\s+(?:sviluppatore|dio|dan|senza\s+restrizioni|jailbreak)\b")),
    Rule("rule-bridge", "it", _re(
        r"\b(?:ogni\s+volta\s+che|ogniqualvolta|quando|se|qualora)\s+(?:\w+\s+){0,2}?(?:l'utente|qualcuno|"
        r"un\s+cliente|il\s+cliente|il\s+paziente|la\s+gente|lui|lei|ti|gli|le)\s+(?:\w+\s+)?(?:chiede|"
        r"chiedono|domanda|domandano|chiedera|menziona|parla)\b[^.!?\n]{0,150}?(?:\b(?:rispondi|"
        r"risponda|dici|afferma|raccomanda|consiglia|la\s+risposta\s+(?:corretta|giusta|vera)\s+e)\b|"
        r"\bdi'|\bdi\s+che\b)")),
    Rule("rule-bridge", "it", _re(
        r"\b(?:d'ora\s+in\s+(?:poi|avanti)|da\s+ora\s+in\s+poi|da\s+adesso|d'ora\s+innanzi|in\s+futuro)\b[,\s]+"
        r"(?:\w+\s+){0,3}?(?:rispondi|di'|di\s+che|dici|devi|dovrai|risponderai|sempre\s+(?:rispondere|"
        r"dire|consigliare)|non\s+(?:menzionare|dire)|consiglia|raccomanda|sei)\b")),
    Rule("assistant-directive", "it", _re(
        r"\b(?:l'assistente|l'ia|il\s+modello|il\s+chatbot|il\s+bot|l'intelligenza\s+artificiale)\s+"
        r"(?:deve|dovra|ha\s+l'obbligo|non\s+deve)\b|\b(?:nota|messaggio)\s+per\s+(?:l'ia|l'assistente|"
        r"il\s+modello)\b")),
    Rule("role-claim", "it", _re(
        r"\bsono\s+(?:l'|il\s+|la\s+|il\s+tuo\s+|la\s+tua\s+|un\s+|una\s+)?(?:amministratore|"
        r"amministratrice|admin|sviluppatore|sviluppatrice|creatore|creatrice|proprietario|operatore|"
        r"programmatore|ingegnere)\b[^\n]{0,100}?\b(?:devi|deve|obbedisci|ignora|disattiva|autorizzo|"
        r"senza\s+restrizioni|regole|ordini|filtri)\b")),
    Rule("concealment", "it", _re(
        r"\b(?:non\s+(?:dire|dirlo|dirgli|menzionare|avvisare|informare|mostrare)|senza\s+(?:dirlo|dire|"
        r"avvisare|informare))\s+(?:niente\s+|nulla\s+)?(?:\w+\s+)?(?:all'|al\s+|a\s+)?(?:utente|cliente|"
        r"paziente)\b")),
    Rule("exfiltration", "it", _re(
        r"\b(?:invia|inviate|manda|inoltra|inoltrate|condividi|carica|pubblica|copia)\b[^.!?\n]{0,80}?"
        r"\b(?:conversazione|cronologia|password|chiavi|credenziali|dati|messaggi|tutto|memorie|carta)\b"
        r"[^.!?\n]{0,60}?\b(?:a|al|su|verso)\s+" + TARGET)),
)  # fmt: skip

CHINESE: tuple[Rule, ...] = (
    Rule("prompt-boundary", "zh", _re(
        r"(?:忽略|无视|忽视|不要理会|不用理会|别理会|绕过|推翻|覆盖)[^。!?\n]{0,12}?(?:指令|指示|提示词|提示|"
        r"规则|要求|命令|设定|限制|约束|说明)"
        r"|(?:忘记|忘掉|抛开|跳过|丢弃|放弃)(?:之前|以前|先前|上面|上述|前面|此前|所有|全部|一切|你的|原来|"
        r"原有)[^。!?\n]{0,8}?(?:指令|指示|提示词|提示|规则|要求|命令|设定|限制|约束|内容)"
        r"|(?:显示|输出|打印|告诉我|透露|泄露|重复|说出|给我看)[^。!?\n]{0,8}(?:系统提示|系统消息|初始指令|隐藏指令)")),
    Rule("persona-override", "zh", _re(
        r"(?:你现在是|从现在起你是|从现在开始你是|你已经是|你现在扮演|扮演一个|你将成为)[^。!?\n]{0,15}?"
        r"(?:没有|不受|无|摆脱)(?:任何)?(?:限制|约束|规则|过滤|审查)"
        r"|开发者模式|越狱模式|上帝模式|(?:进入|开启|启用|激活)[^。\n]{0,6}(?:无限制|dan)模式|越狱[^。\n]{0,10}(?:你|ai|模型|助手)")),
    Rule("rule-bridge", "zh", _re(
        r"(?:每当|每次|无论何时|无论谁|不管谁|如果|要是|当|一旦|只要|假如)[^。!?\n]{0,20}?(?:用户|有人|别人|"
        r"任何人|谁|客户|患者|病人|他|她|他们|你被)[^。!?\n]{0,20}?(?:问|询问|问起|问到|提到|咨询|打听)"
        r"[^。!?\n]{0,40}?(?:正确(?:的)?(?:答案|回答|剂量)|(?:都|就|一律|一定|必须|要)?(?:回答|回复|说|"
        r"告诉|答复|推荐|声称|表示))")),
    Rule("rule-bridge", "zh", _re(
        r"(?:从现在开始|从现在起|从今以后|从今往后|今后|以后|从此|此后)[^。!?\n]{0,20}?(?:你|都要|必须|"
        r"总是|永远|一律|始终)[^。!?\n]{0,10}?(?:回答|回复|说|告诉|推荐|称|声称|答复)")),
    Rule("assistant-directive", "zh", _re(
        r"(?<!我的)(?<!我们的)(?<!他的)(?<!她的)(?<!你的)(?<!公司的)"
        r"(?:助手|助理|人工智能|ai|模型|聊天机器人)(?:必须|应该|应当|一定要|不得|始终|总是|永远|务必)")),
    Rule("role-claim", "zh", _re(
        r"我是(?:你的|这个|本|该)?(?:系统的?)?(?:管理员|开发者|开发人员|创造者|创建者|所有者|运营者|工程师)"
        r"[^\n]{0,60}?(?:你必须|你要|你应该|服从|听从|忽略|无视|关闭|禁用|授权|不受限制|规则|命令|限制)")),
    Rule("concealment", "zh", _re(
        r"(?:不要|别|不许|不准|切勿)(?:告诉|通知|提醒|让)(?:用户|客户|患者|病人)"
        r"|(?:瞒着|偷偷|悄悄|秘密地)[^。\n]{0,10}(?:发送|转发|添加|加入|复制|记录|修改)")),
    Rule("exfiltration", "zh", _re(
        r"(?:发送|发给|转发|上传|泄露|复制|传到)[^。\n]{0,30}(?:对话|聊天记录|历史|密码|密钥|凭证|数据|记忆|"
        r"所有)[^。\n]{0,20}(?:到|给|至)[^。\n]{0,10}" + TARGET)),
)  # fmt: skip

JAPANESE: tuple[Rule, ...] = (
    Rule("prompt-boundary", "ja", _re(
        r"(?:以前|前|上記|これまで|今まで|先ほど|上|最初|元|全て|すべて|あなたへ)の?[^。\n]{0,10}?(?:指示|命令|指令|"
        r"ルール|規則|プロンプト|設定|制約|ガイドライン|制限)(?:を|は)?(?:すべて|全て|全部|一切)?(?:無視|忘れ|"
        r"破棄|取り消|解除)"
        r"|システムプロンプト[^。\n]{0,12}(?:表示|出力|教え|見せ|公開|無視|漏ら)")),
    Rule("persona-override", "ja", _re(
        r"(?:あなたは|お前は|君は)(?:今から|これから|今|もう)?[^。\n]{0,15}?(?:制限|制約|ルール|フィルター)"
        r"(?:の)?(?:ない|なし|無し|無い)|開発者モード|脱獄|ジェイルブレイク|danモード")),
    Rule("rule-bridge", "ja", _re(
        r"(?:ユーザー|ユーザ|誰か|誰|だれか|人|お客様|顧客|患者|相手)(?:が|に|から)[^。\n]{0,25}?(?:聞|尋ね|"
        r"質問|問い合わせ|訊)[^。\n]{0,10}?(?:たら|れば|ても|時は|ときは|場合は|場合|時)[^。\n]{0,60}?"
        r"(?:と答え|と言|と伝え|と回答|と返|を勧め|を推奨|正しい答え)")),
    Rule("rule-bridge", "ja", _re(
        r"(?:これからは|今後は|今後|今からは|以後|以降)[^。\n]{0,20}?(?:常に|必ず|いつも)?[^。\n]{0,20}?"
        r"(?:と答え|と言って|と回答|と伝え|を勧め|返答し)"
        r"|正しい(?:答え|回答)は(?:常に|必ず|いつも)")),
    Rule("assistant-directive", "ja", _re(
        r"(?:アシスタント|ai|モデル|チャットボット|人工知能)(?:は|が)[^。\n]{0,20}?(?:しなければならない|"
        r"しなければなりません|する必要があ|すること|必ず|べき|してはならない|してはいけない)")),
    Rule("role-claim", "ja", _re(
        r"(?:私|わたし|僕|俺)は(?:あなたの|この|本)?(?:システムの)?(?:管理者|開発者|作成者|所有者|運営者|"
        r"エンジニア)[^\n]{0,60}?(?:無視|従え|従って|従わ|解除|無効|しなければ|命令|ルール|制限)")),
    Rule("concealment", "ja", _re(
        r"(?:ユーザー|ユーザ|お客様|患者)に(?:は)?(?:言わ|伝え|知らせ|教え|話さ)(?:ない|ず)")),
)  # fmt: skip

RUSSIAN: tuple[Rule, ...] = (
    Rule("prompt-boundary", "ru", _re(
        r"\b(?:игнорируй|игнорируйте|проигнорируй|проигнорируйте|забудь|забудьте|не\s+обращай\s+внимания\s+на|"
        r"пренебреги|отбрось|обойди|отмени|отбросьте)\s+(?:\w+\s+){0,3}?(?:инструкци\w*|указани\w*|правил\w*|"
        r"команд\w*|директив\w*|промпт\w*|ограничени\w*|вс[её]\s+(?:что|выше|предыдущее|сказанное|"
        r"прежнее))"
        r"|\b(?:раскрой|покажи|выведи|напечатай|повтори|сообщи|расскажи)\s+(?:\w+\s+){0,2}?(?:системн\w+\s+"
        r"(?:промпт\w*|подсказк\w+|инструкци\w+|сообщени\w+)|скрыт\w+\s+инструкци\w+)")),
    Rule("persona-override", "ru", _re(
        r"\b(?:теперь\s+ты|ты\s+теперь|отныне\s+ты)\s+(?:\w+\s+){0,3}?(?:ии|ассистент|модель|бот|dan|"
        r"без\s+(?:ограничений|фильтров|правил|цензуры))"
        r"|\bрежим\w*\s+разработчика|\bджейлбрейк")),
    Rule("rule-bridge", "ru", _re(
        r"\b(?:всякий\s+раз,?\s+когда|каждый\s+раз,?\s+когда|когда|если)\s+(?:\w+\s+){0,2}?(?:пользователь|"
        r"кто-нибудь|кто-то|кто|клиент|пациент|люди|он|она|тебя|вас)\s+(?:\w+\s+){0,2}?(?:спрос\w*|"
        r"спраш\w*|интерес\w*|упомян\w*|задаст|задает|задаёт)\b[^.!?\n]{0,150}?(?:\b(?:скажи|говори|"
        r"отвечай|ответь|сообщи|утверждай|рекомендуй)\b|правильн\w+\s+ответ)")),
    Rule("rule-bridge", "ru", _re(
        r"(?:\bотныне|\bс\s+этого\s+момента|\bс\s+сегодняшнего\s+дня|\bвпредь|\bтеперь\s+всегда|"
        r"\bв\s+дальнейшем|\bс\s+этих\s+пор)[,\s]+(?:\w+\s+){0,3}?(?:отвечай|говори|скажи|ты\s+(?:должен|"
        r"должна|будешь)|всегда\s+(?:отвечай|говори|рекомендуй)|никогда\s+не\s+(?:упоминай|говори)|"
        r"рекомендуй)")),
    Rule("assistant-directive", "ru", _re(
        r"\b(?:ассистент|ии|модель|чат-бот|бот|нейросеть|искусственный\s+интеллект)\s+(?:должен|должна|"
        r"обязан|обязана|не\s+должен|не\s+должна|будет\s+всегда)\b")),
    Rule("role-claim", "ru", _re(
        r"\bя\s+(?:твой\s+|ваш\s+|твоя\s+|ваша\s+|главный\s+)?(?:администратор|админ|разработчик|"
        r"разработчица|создатель|владелец|оператор|программист|инженер)\b[^\n]{0,100}?(?:ты\s+должен|"
        r"ты\s+обязан|подчиняйся|слушайся|игнорируй|отключи|разрешаю|приказываю|без\s+ограничений|"
        r"правил|ограничени)")),
    Rule("concealment", "ru", _re(
        r"\bне\s+(?:говори|сообщай|рассказывай|показывай|упоминай)\s+(?:об\s+этом\s+|ничего\s+)?"
        r"(?:пользовател\w+|клиент\w+|пациент\w+)"
        r"|\b(?:тайно|втихую|незаметно|скрытно)\s+(?:\w+\s+)?(?:отправ\w+|добав\w+|перешл\w+|копир\w+)")),
    Rule("exfiltration", "ru", _re(
        r"\b(?:отправь|отправьте|перешли|перешлите|пошли|загрузи|скопируй)\b[^.!?\n]{0,80}?(?:переписк\w+|"
        r"истори\w+|парол\w+|ключ\w*|данны\w+|сообщени\w+|вс[её]|памят\w+)[^.!?\n]{0,60}?(?:на|в|по)\s+"
        + TARGET)),
)  # fmt: skip

# "No limits" near a word for the model, in any of these languages.
ANY_LANGUAGE: tuple[Rule, ...] = (
    Rule("persona-override", "any", _re(
        NO_LIMITS + r"[^.!?\n]{0,30}?\b" + MODEL_ANY + r"\b|\b" + MODEL_ANY + r"\b[^.!?\n]{0,30}?" + NO_LIMITS
        + r"|\b" + ANSWER_ANY + r"\b[^.!?\n]{0,20}?" + NO_LIMITS)),
)  # fmt: skip

INTERNATIONAL: tuple[Rule, ...] = (
    SPANISH + FRENCH + GERMAN + PORTUGUESE + ITALIAN + CHINESE + JAPANESE + RUSSIAN + ANY_LANGUAGE
)
