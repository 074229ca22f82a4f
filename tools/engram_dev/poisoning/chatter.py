"""Everyday talk for the third generator's everyday half (``mix``): one row a sentence, all for
training."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

# Everyday first-person talk that uses the words instructions use (secrets, money, passwords,
# "always", "tell", "send", "from now on"), so those words alone do not make a text an attack.
CHATTER: dict[str, list[str]] = {
    "en": [
        "Don't tell my brother, but I bought the concert tickets already.",
        "I spent $60 on a new lamp and honestly no regrets.",
        "From now on I'm going to bed before eleven, I promise.",
        "My bank sent me a new card and the old one stops working on Friday.",
        "I always forget my password for the library app.",
        "She told me to keep it a secret until the wedding.",
        "Every time I call my grandma she asks if I'm eating enough.",
        "I sent the photos to my mum and she loved them.",
        "Whenever I visit Lisbon I end up eating too many pastries.",
        "I pretended not to notice when he burnt the toast.",
        "The new assistant manager at work is really nice.",
        "I answered all the emails before lunch for once.",
        "My son's school wants us to pay the trip fee online by Monday.",
        "I told the kids they can have dessert if they finish their homework.",
        "Keep this between us: I'm thinking of quitting my job.",
        "I forwarded the recipe to Jen, she's been asking for weeks.",
    ],
    "es": [
        "No se lo digas a mi hermano, pero ya compré las entradas.",
        "Me gasté 60 euros en una lámpara nueva y no me arrepiento.",
        "A partir de ahora me acuesto antes de las once, lo prometo.",
        "El banco me mandó una tarjeta nueva y la vieja deja de funcionar el viernes.",
        "Siempre se me olvida la contraseña de la app de la biblioteca.",
        "Me dijo que lo guardara en secreto hasta la boda.",
        "Cada vez que llamo a mi abuela me pregunta si como bien.",
        "Le mandé las fotos a mi madre y le encantaron.",
        "Les dije a los niños que hay postre si terminan los deberes.",
        "Que quede entre nosotros: estoy pensando en dejar el trabajo.",
    ],
    "de": [
        "Sag es meinem Bruder nicht, aber ich habe die Konzertkarten schon gekauft.",
        "Ich habe 60 Euro für eine neue Lampe ausgegeben und bereue nichts.",
        "Ab sofort gehe ich vor elf ins Bett, versprochen.",
        "Die Bank hat mir eine neue Karte geschickt, die alte geht ab Freitag nicht mehr.",
        "Ich vergesse immer mein Passwort für die Bibliotheks-App.",
        "Sie hat gesagt, ich soll es bis zur Hochzeit geheim halten.",
        "Jedes Mal, wenn ich Oma anrufe, fragt sie, ob ich genug esse.",
        "Ich habe Mama die Fotos geschickt und sie fand sie toll.",
        "Ich habe den Kindern gesagt, es gibt Nachtisch, wenn die Hausaufgaben fertig sind.",
        "Bleibt unter uns: Ich überlege zu kündigen.",
    ],
    "fr": [
        "Ne le dis pas à mon frère, mais j'ai déjà acheté les billets.",
        "J'ai dépensé 60 euros pour une nouvelle lampe et je ne regrette rien.",
        "Désormais je me couche avant onze heures, promis.",
        "La banque m'a envoyé une nouvelle carte, l'ancienne ne marche plus vendredi.",
        "J'oublie toujours mon mot de passe de l'appli de la bibliothèque.",
        "Elle m'a dit de garder le secret jusqu'au mariage.",
        "Chaque fois que j'appelle mamie, elle demande si je mange assez.",
        "J'ai envoyé les photos à ma mère et elle a adoré.",
        "J'ai dit aux enfants qu'il y aura un dessert s'ils finissent leurs devoirs.",
        "Entre nous : je pense à démissionner.",
    ],
    "zh": [
        "别告诉我哥，我已经买好演唱会的票了。",
        "我花了60块买了一盏新台灯，一点也不后悔。",
        "从现在起我保证十一点前睡觉。",
        "银行给我寄了新卡，旧卡周五就不能用了。",
        "我总是忘记图书馆应用的密码。",
        "她让我在婚礼前保密。",
        "每次给奶奶打电话，她都问我有没有好好吃饭。",
        "我把照片发给了妈妈，她很喜欢。",
        "我跟孩子们说写完作业就有甜点。",
        "只在我们之间说：我在考虑辞职。",
    ],
}


def rows() -> Iterator[dict[str, Any]]:
    """The everyday talk above, one row a sentence (all for training)."""
    for lang, texts in CHATTER.items():
        for i, text in enumerate(texts):
            yield {
                "label": "benign",
                "style": "chatter",
                "lang": lang,
                "generator": "mix",
                "template": f"mix/{lang}/chatter/{i}",
                "held": False,
                "text": text,
            }
