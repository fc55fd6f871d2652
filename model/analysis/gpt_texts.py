"""The fixed texts the head atlas averages a GPT over, in the language it writes: 25 Shakespeare passages for
gpt-en (public domain, a line or two each), 25 Tang 五言绝句 in Simplified characters for gpt-zh (four lines of five
characters, ，and 。 in place: what the "previous line" role reads). Characters a model's vocabulary lacks read as □."""

from __future__ import annotations

GPT_TEXTS: dict[str, tuple[str, ...]] = {
    "en": (
        "To be, or not to be, that is the question:\nWhether 'tis nobler in the mind to suffer",
        "Shall I compare thee to a summer's day?\nThou art more lovely and more temperate:",
        "All the world's a stage,\nAnd all the men and women merely players;",
        "Now is the winter of our discontent\nMade glorious summer by this sun of York;",
        "Friends, Romans, countrymen, lend me your ears;\nI come to bury Caesar, not to praise him.",
        "But, soft! what light through yonder window breaks?\nIt is the east, and Juliet is the sun.",
        "To-morrow, and to-morrow, and to-morrow,\nCreeps in this petty pace from day to day,",
        "If music be the food of love, play on;\nGive me excess of it,",
        "The quality of mercy is not strain'd,\nIt droppeth as the gentle rain from heaven",
        "Once more unto the breach, dear friends, once more;\nOr close the wall up with our English dead.",
        "O Romeo, Romeo! wherefore art thou Romeo?\nDeny thy father and refuse thy name;",
        "Is this a dagger which I see before me,\nThe handle toward my hand?",
        "We are such stuff\nAs dreams are made on, and our little life\nIs rounded with a sleep.",
        "Double, double toil and trouble;\nFire burn and cauldron bubble.",
        "What's in a name? that which we call a rose\nBy any other name would smell as sweet;",
        "Let me not to the marriage of true minds\nAdmit impediments.",
        "For aught that I could ever read,\nThe course of true love never did run smooth;",
        "Good night, good night! parting is such sweet sorrow,\nThat I shall say good night till it be morrow.",
        "Cowards die many times before their deaths;\nThe valiant never taste of death but once.",
        "Then, happy low, lie down!\nUneasy lies the head that wears a crown.",
        "Some are born great, some achieve greatness,\nand some have greatness thrust upon 'em.",
        "Love looks not with the eyes, but with the mind;\nAnd therefore is wing'd Cupid painted blind:",
        "The fault, dear Brutus, is not in our stars,\nBut in ourselves, that we are underlings.",
        "Now, fair Hippolyta, our nuptial hour\nDraws on apace;",
        "A horse! a horse! my kingdom for a horse!",
    ),
    "zh": (
        "床前明月光，疑是地上霜。举头望明月，低头思故乡。",
        "春眠不觉晓，处处闻啼鸟。夜来风雨声，花落知多少。",
        "白日依山尽，黄河入海流。欲穷千里目，更上一层楼。",
        "千山鸟飞绝，万径人踪灭。孤舟蓑笠翁，独钓寒江雪。",
        "红豆生南国，春来发几枝。愿君多采撷，此物最相思。",
        "空山不见人，但闻人语响。返景入深林，复照青苔上。",
        "独坐幽篁里，弹琴复长啸。深林人不知，明月来相照。",
        "移舟泊烟渚，日暮客愁新。野旷天低树，江清月近人。",
        "松下问童子，言师采药去。只在此山中，云深不知处。",
        "向晚意不适，驱车登古原。夕阳无限好，只是近黄昏。",
        "锄禾日当午，汗滴禾下土。谁知盘中餐，粒粒皆辛苦。",
        "功盖三分国，名成八阵图。江流石不转，遗恨失吞吴。",
        "绿蚁新醅酒，红泥小火炉。晚来天欲雪，能饮一杯无。",
        "山中相送罢，日暮掩柴扉。春草明年绿，王孙归不归。",
        "北斗七星高，哥舒夜带刀。至今窥牧马，不敢过临洮。",
        "君自故乡来，应知故乡事。来日绮窗前，寒梅著花未。",
        "日暮苍山远，天寒白屋贫。柴门闻犬吠，风雪夜归人。",
        "美人卷珠帘，深坐颦蛾眉。但见泪痕湿，不知心恨谁。",
        "打起黄莺儿，莫教枝上啼。啼时惊妾梦，不得到辽西。",
        "泠泠七弦上，静听松风寒。古调虽自爱，今人多不弹。",
        "众鸟高飞尽，孤云独去闲。相看两不厌，只有敬亭山。",
        "岭外音书断，经冬复历春。近乡情更怯，不敢问来人。",
        "终南阴岭秀，积雪浮云端。林表明霁色，城中增暮寒。",
        "寥落古行宫，宫花寂寞红。白头宫女在，闲坐说玄宗。",
        "慈母手中线，游子身上衣。临行密密缝，意恐迟迟归。",
    ),
}


def gpt_texts(language: str) -> tuple[str, ...]:
    """The 25 texts of one language ("en" or "zh"); ValueError for another."""
    if language not in GPT_TEXTS:
        raise ValueError(f"language must be one of {', '.join(GPT_TEXTS)}, got {language!r}.")
    return GPT_TEXTS[language]
