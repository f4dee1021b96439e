/// Commonly used passwords refused by ``PasswordPolicy`` (NIST SP 800-63B § 3.1.1.2 asks verifiers to
/// check new passwords against such a list): frequent words and names with the digit and year
/// suffixes people add, plus digit and keyboard runs. Embedded in the binary so the check cannot be
/// lost by a missing resource file.
enum CommonPasswords {
    /// The list, lower-cased.
    static let all: Set<String> = Set(
        """
        00000000 01234567 11111111 11112222 11223344 12121212 123123123 12341234 12344321 12345678 123456789
        1234567890 1234qwer 13579246 147258369 159753456 1q2w3e4r 1q2w3e4r! 1q2w3e4r01 1q2w3e4r07 1q2w3e4r1
        1q2w3e4r1! 1q2w3e4r12 1q2w3e4r123 1q2w3e4r123! 1q2w3e4r1234 1q2w3e4r12345 1q2w3e4r2020 1q2w3e4r2021
        1q2w3e4r2022 1q2w3e4r2023 1q2w3e4r2024 1q2w3e4r2025 1q2w3e4r2026 1q2w3e4r5t 1q2w3e4r69 1q2w3e4r99
        1qaz2wsx 1qaz2wsx! 1qaz2wsx01 1qaz2wsx07 1qaz2wsx1 1qaz2wsx1! 1qaz2wsx12 1qaz2wsx123 1qaz2wsx123!
        1qaz2wsx1234 1qaz2wsx12345 1qaz2wsx2020 1qaz2wsx2021 1qaz2wsx2022 1qaz2wsx2023 1qaz2wsx2024
        1qaz2wsx2025 1qaz2wsx2026 1qaz2wsx69 1qaz2wsx99 22222222 24682468 33333333 44444444 55555555
        66666666 741852963 77777777 789456123 87654321 88888888 98765432 987654321 99999999 a1b2c3d4
        aaaaaaaa abc12301 abc12307 abc1231! abc12312 abc123123 abc123123! abc1231234 abc12312345 abc1232020
        abc1232021 abc1232022 abc1232023 abc1232024 abc1232025 abc1232026 abc12369 abc12399 abcd1234
        abcdef01 abcdef07 abcdef1! abcdef12 abcdef123 abcdef123! abcdef1234 abcdef12345 abcdef2020
        abcdef2021 abcdef2022 abcdef2023 abcdef2024 abcdef2025 abcdef2026 abcdef69 abcdef99 abcdefgh
        abcdefgh! abcdefgh01 abcdefgh07 abcdefgh1 abcdefgh1! abcdefgh12 abcdefgh123 abcdefgh123!
        abcdefgh1234 abcdefgh12345 abcdefgh2020 abcdefgh2021 abcdefgh2022 abcdefgh2023 abcdefgh2024
        abcdefgh2025 abcdefgh2026 abcdefgh69 abcdefgh99 access01 access07 access1! access12 access123
        access123! access1234 access12345 access2020 access2021 access2022 access2023 access2024 access2025
        access2026 access69 access99 admin123 admin123! admin1234 admin12345 admin2020 admin2021 admin2022
        admin2023 admin2024 admin2025 admin2026 administrator administrator! administrator01 administrator07
        administrator1 administrator1! administrator12 administrator123 administrator123! administrator1234
        administrator12345 administrator2020 administrator2021 administrator2022 administrator2023
        administrator2024 administrator2025 administrator2026 administrator69 administrator99 andrew01
        andrew07 andrew1! andrew12 andrew123 andrew123! andrew1234 andrew12345 andrew2020 andrew2021
        andrew2022 andrew2023 andrew2024 andrew2025 andrew2026 andrew69 andrew99 angel123 angel123!
        angel1234 angel12345 angel2020 angel2021 angel2022 angel2023 angel2024 angel2025 angel2026 angels01
        angels07 angels1! angels12 angels123 angels123! angels1234 angels12345 angels2020 angels2021
        angels2022 angels2023 angels2024 angels2025 angels2026 angels69 angels99 apple123 apple123!
        apple1234 apple12345 apple2020 apple2021 apple2022 apple2023 apple2024 apple2025 apple2026 arsenal!
        arsenal01 arsenal07 arsenal1 arsenal1! arsenal12 arsenal123 arsenal123! arsenal1234 arsenal12345
        arsenal2020 arsenal2021 arsenal2022 arsenal2023 arsenal2024 arsenal2025 arsenal2026 arsenal69
        arsenal99 asdf1234 asdfgh01 asdfgh07 asdfgh1! asdfgh12 asdfgh123 asdfgh123! asdfgh1234 asdfgh12345
        asdfgh2020 asdfgh2021 asdfgh2022 asdfgh2023 asdfgh2024 asdfgh2025 asdfgh2026 asdfgh69 asdfgh99
        asdfghjkl asdfghjkl! asdfghjkl01 asdfghjkl07 asdfghjkl1 asdfghjkl1! asdfghjkl12 asdfghjkl123
        asdfghjkl123! asdfghjkl1234 asdfghjkl12345 asdfghjkl2020 asdfghjkl2021 asdfghjkl2022 asdfghjkl2023
        asdfghjkl2024 asdfghjkl2025 asdfghjkl2026 asdfghjkl69 asdfghjkl99 ashley01 ashley07 ashley1!
        ashley12 ashley123 ashley123! ashley1234 ashley12345 ashley2020 ashley2021 ashley2022 ashley2023
        ashley2024 ashley2025 ashley2026 ashley69 ashley99 autumn01 autumn07 autumn1! autumn12 autumn123
        autumn123! autumn1234 autumn12345 autumn2020 autumn2021 autumn2022 autumn2023 autumn2024 autumn2025
        autumn2026 autumn69 autumn99 babygirl babygirl! babygirl01 babygirl07 babygirl1 babygirl1!
        babygirl12 babygirl123 babygirl123! babygirl1234 babygirl12345 babygirl2020 babygirl2021
        babygirl2022 babygirl2023 babygirl2024 babygirl2025 babygirl2026 babygirl69 babygirl99 banana01
        banana07 banana1! banana12 banana123 banana123! banana1234 banana12345 banana2020 banana2021
        banana2022 banana2023 banana2024 banana2025 banana2026 banana69 banana99 barcelona barcelona!
        barcelona01 barcelona07 barcelona1 barcelona1! barcelona12 barcelona123 barcelona123! barcelona1234
        barcelona12345 barcelona2020 barcelona2021 barcelona2022 barcelona2023 barcelona2024 barcelona2025
        barcelona2026 barcelona69 barcelona99 baseball baseball! baseball01 baseball07 baseball1 baseball1!
        baseball12 baseball123 baseball123! baseball1234 baseball12345 baseball2020 baseball2021
        baseball2022 baseball2023 baseball2024 baseball2025 baseball2026 baseball69 baseball99 basketball
        basketball! basketball01 basketball07 basketball1 basketball1! basketball12 basketball123
        basketball123! basketball1234 basketball12345 basketball2020 basketball2021 basketball2022
        basketball2023 basketball2024 basketball2025 basketball2026 basketball69 basketball99 batman01
        batman07 batman1! batman12 batman123 batman123! batman1234 batman12345 batman2020 batman2021
        batman2022 batman2023 batman2024 batman2025 batman2026 batman69 batman99 buster01 buster07 buster1!
        buster12 buster123 buster123! buster1234 buster12345 buster2020 buster2021 buster2022 buster2023
        buster2024 buster2025 buster2026 buster69 buster99 changeme changeme! changeme01 changeme07
        changeme1 changeme1! changeme12 changeme123 changeme123! changeme1234 changeme12345 changeme2020
        changeme2021 changeme2022 changeme2023 changeme2024 changeme2025 changeme2026 changeme69 changeme99
        charlie! charlie01 charlie07 charlie1 charlie1! charlie12 charlie123 charlie123! charlie1234
        charlie12345 charlie2020 charlie2021 charlie2022 charlie2023 charlie2024 charlie2025 charlie2026
        charlie69 charlie99 cheese01 cheese07 cheese1! cheese12 cheese123 cheese123! cheese1234 cheese12345
        cheese2020 cheese2021 cheese2022 cheese2023 cheese2024 cheese2025 cheese2026 cheese69 cheese99
        chelsea! chelsea01 chelsea07 chelsea1 chelsea1! chelsea12 chelsea123 chelsea123! chelsea1234
        chelsea12345 chelsea2020 chelsea2021 chelsea2022 chelsea2023 chelsea2024 chelsea2025 chelsea2026
        chelsea69 chelsea99 chocolate chocolate! chocolate01 chocolate07 chocolate1 chocolate1! chocolate12
        chocolate123 chocolate123! chocolate1234 chocolate12345 chocolate2020 chocolate2021 chocolate2022
        chocolate2023 chocolate2024 chocolate2025 chocolate2026 chocolate69 chocolate99 cisco123 cisco123!
        cisco1234 cisco12345 cisco2020 cisco2021 cisco2022 cisco2023 cisco2024 cisco2025 cisco2026 computer
        computer! computer01 computer07 computer1 computer1! computer12 computer123 computer123!
        computer1234 computer12345 computer2020 computer2021 computer2022 computer2023 computer2024
        computer2025 computer2026 computer69 computer99 cookie01 cookie07 cookie1! cookie12 cookie123
        cookie123! cookie1234 cookie12345 cookie2020 cookie2021 cookie2022 cookie2023 cookie2024 cookie2025
        cookie2026 cookie69 cookie99 corvette corvette! corvette01 corvette07 corvette1 corvette1!
        corvette12 corvette123 corvette123! corvette1234 corvette12345 corvette2020 corvette2021
        corvette2022 corvette2023 corvette2024 corvette2025 corvette2026 corvette69 corvette99 daniel01
        daniel07 daniel1! daniel12 daniel123 daniel123! daniel1234 daniel12345 daniel2020 daniel2021
        daniel2022 daniel2023 daniel2024 daniel2025 daniel2026 daniel69 daniel99 database database!
        database01 database07 database1 database1! database12 database123 database123! database1234
        database12345 database2020 database2021 database2022 database2023 database2024 database2025
        database2026 database69 database99 default! default01 default07 default1 default1! default12
        default123 default123! default1234 default12345 default2020 default2021 default2022 default2023
        default2024 default2025 default2026 default69 default99 diamond! diamond01 diamond07 diamond1
        diamond1! diamond12 diamond123 diamond123! diamond1234 diamond12345 diamond2020 diamond2021
        diamond2022 diamond2023 diamond2024 diamond2025 diamond2026 diamond69 diamond99 dollar01 dollar07
        dollar1! dollar12 dollar123 dollar123! dollar1234 dollar12345 dollar2020 dollar2021 dollar2022
        dollar2023 dollar2024 dollar2025 dollar2026 dollar69 dollar99 dragon01 dragon07 dragon1! dragon12
        dragon123 dragon123! dragon1234 dragon12345 dragon2020 dragon2021 dragon2022 dragon2023 dragon2024
        dragon2025 dragon2026 dragon69 dragon99 example! example01 example07 example1 example1! example12
        example123 example123! example1234 example12345 example2020 example2021 example2022 example2023
        example2024 example2025 example2026 example69 example99 facebook facebook! facebook01 facebook07
        facebook1 facebook1! facebook12 facebook123 facebook123! facebook1234 facebook12345 facebook2020
        facebook2021 facebook2022 facebook2023 facebook2024 facebook2025 facebook2026 facebook69 facebook99
        family01 family07 family1! family12 family123 family123! family1234 family12345 family2020
        family2021 family2022 family2023 family2024 family2025 family2026 family69 family99 ferrari!
        ferrari01 ferrari07 ferrari1 ferrari1! ferrari12 ferrari123 ferrari123! ferrari1234 ferrari12345
        ferrari2020 ferrari2021 ferrari2022 ferrari2023 ferrari2024 ferrari2025 ferrari2026 ferrari69
        ferrari99 flower01 flower07 flower1! flower12 flower123 flower123! flower1234 flower12345 flower2020
        flower2021 flower2022 flower2023 flower2024 flower2025 flower2026 flower69 flower99 football
        football! football01 football07 football1 football1! football12 football123 football123!
        football1234 football12345 football2020 football2021 football2022 football2023 football2024
        football2025 football2026 football69 football99 forever! forever01 forever07 forever1 forever1!
        forever12 forever123 forever123! forever1234 forever12345 forever2020 forever2021 forever2022
        forever2023 forever2024 forever2025 forever2026 forever69 forever99 fortnite fortnite! fortnite01
        fortnite07 fortnite1 fortnite1! fortnite12 fortnite123 fortnite123! fortnite1234 fortnite12345
        fortnite2020 fortnite2021 fortnite2022 fortnite2023 fortnite2024 fortnite2025 fortnite2026
        fortnite69 fortnite99 freedom! freedom01 freedom07 freedom1 freedom1! freedom12 freedom123
        freedom123! freedom1234 freedom12345 freedom2020 freedom2021 freedom2022 freedom2023 freedom2024
        freedom2025 freedom2026 freedom69 freedom99 friends! friends01 friends07 friends1 friends1!
        friends12 friends123 friends123! friends1234 friends12345 friends2020 friends2021 friends2022
        friends2023 friends2024 friends2025 friends2026 friends69 friends99 ginger01 ginger07 ginger1!
        ginger12 ginger123 ginger123! ginger1234 ginger12345 ginger2020 ginger2021 ginger2022 ginger2023
        ginger2024 ginger2025 ginger2026 ginger69 ginger99 golden01 golden07 golden1! golden12 golden123
        golden123! golden1234 golden12345 golden2020 golden2021 golden2022 golden2023 golden2024 golden2025
        golden2026 golden69 golden99 google01 google07 google1! google12 google123 google123! google1234
        google12345 google2020 google2021 google2022 google2023 google2024 google2025 google2026 google69
        google99 guest123 guest123! guest1234 guest12345 guest2020 guest2021 guest2022 guest2023 guest2024
        guest2025 guest2026 harley01 harley07 harley1! harley12 harley123 harley123! harley1234 harley12345
        harley2020 harley2021 harley2022 harley2023 harley2024 harley2025 harley2026 harley69 harley99
        hello123 hello123! hello12301 hello12307 hello1231 hello1231! hello12312 hello123123 hello123123!
        hello1231234 hello12312345 hello1232020 hello1232021 hello1232022 hello1232023 hello1232024
        hello1232025 hello1232026 hello1234 hello12345 hello12369 hello12399 hello2020 hello2021 hello2022
        hello2023 hello2024 hello2025 hello2026 hockey01 hockey07 hockey1! hockey12 hockey123 hockey123!
        hockey1234 hockey12345 hockey2020 hockey2021 hockey2022 hockey2023 hockey2024 hockey2025 hockey2026
        hockey69 hockey99 hunter01 hunter07 hunter1! hunter12 hunter123 hunter123! hunter1234 hunter12345
        hunter2020 hunter2021 hunter2022 hunter2023 hunter2024 hunter2025 hunter2026 hunter69 hunter99
        iloveyou iloveyou! iloveyou01 iloveyou07 iloveyou1 iloveyou1! iloveyou12 iloveyou123 iloveyou123!
        iloveyou1234 iloveyou12345 iloveyou2020 iloveyou2021 iloveyou2022 iloveyou2023 iloveyou2024
        iloveyou2025 iloveyou2026 iloveyou69 iloveyou99 internet internet! internet01 internet07 internet1
        internet1! internet12 internet123 internet123! internet1234 internet12345 internet2020 internet2021
        internet2022 internet2023 internet2024 internet2025 internet2026 internet69 internet99 iphone01
        iphone07 iphone1! iphone12 iphone123 iphone123! iphone1234 iphone12345 iphone2020 iphone2021
        iphone2022 iphone2023 iphone2024 iphone2025 iphone2026 iphone69 iphone99 jennifer jennifer!
        jennifer01 jennifer07 jennifer1 jennifer1! jennifer12 jennifer123 jennifer123! jennifer1234
        jennifer12345 jennifer2020 jennifer2021 jennifer2022 jennifer2023 jennifer2024 jennifer2025
        jennifer2026 jennifer69 jennifer99 jessica! jessica01 jessica07 jessica1 jessica1! jessica12
        jessica123 jessica123! jessica1234 jessica12345 jessica2020 jessica2021 jessica2022 jessica2023
        jessica2024 jessica2025 jessica2026 jessica69 jessica99 jordan01 jordan07 jordan1! jordan12
        jordan123 jordan123! jordan1234 jordan12345 jordan2020 jordan2021 jordan2022 jordan2023 jordan2024
        jordan2025 jordan2026 jordan69 jordan99 joshua01 joshua07 joshua1! joshua12 joshua123 joshua123!
        joshua1234 joshua12345 joshua2020 joshua2021 joshua2022 joshua2023 joshua2024 joshua2025 joshua2026
        joshua69 joshua99 killer01 killer07 killer1! killer12 killer123 killer123! killer1234 killer12345
        killer2020 killer2021 killer2022 killer2023 killer2024 killer2025 killer2026 killer69 killer99
        letmein! letmein01 letmein07 letmein1 letmein1! letmein101 letmein107 letmein11 letmein11!
        letmein112 letmein1123 letmein1123! letmein11234 letmein112345 letmein12 letmein12020 letmein12021
        letmein12022 letmein12023 letmein12024 letmein12025 letmein12026 letmein123 letmein123! letmein1234
        letmein12345 letmein169 letmein199 letmein2020 letmein2021 letmein2022 letmein2023 letmein2024
        letmein2025 letmein2026 letmein69 letmein99 linkedin linkedin! linkedin01 linkedin07 linkedin1
        linkedin1! linkedin12 linkedin123 linkedin123! linkedin1234 linkedin12345 linkedin2020 linkedin2021
        linkedin2022 linkedin2023 linkedin2024 linkedin2025 linkedin2026 linkedin69 linkedin99 linux123
        linux123! linux1234 linux12345 linux2020 linux2021 linux2022 linux2023 linux2024 linux2025 linux2026
        liverpool liverpool! liverpool01 liverpool07 liverpool1 liverpool1! liverpool12 liverpool123
        liverpool123! liverpool1234 liverpool12345 liverpool2020 liverpool2021 liverpool2022 liverpool2023
        liverpool2024 liverpool2025 liverpool2026 liverpool69 liverpool99 login123 login123! login1234
        login12345 login2020 login2021 login2022 login2023 login2024 login2025 login2026 lovely01 lovely07
        lovely1! lovely12 lovely123 lovely123! lovely1234 lovely12345 lovely2020 lovely2021 lovely2022
        lovely2023 lovely2024 lovely2025 lovely2026 lovely69 lovely99 loveme01 loveme07 loveme1! loveme12
        loveme123 loveme123! loveme1234 loveme12345 loveme2020 loveme2021 loveme2022 loveme2023 loveme2024
        loveme2025 loveme2026 loveme69 loveme99 maggie01 maggie07 maggie1! maggie12 maggie123 maggie123!
        maggie1234 maggie12345 maggie2020 maggie2021 maggie2022 maggie2023 maggie2024 maggie2025 maggie2026
        maggie69 maggie99 manchester manchester! manchester01 manchester07 manchester1 manchester1!
        manchester12 manchester123 manchester123! manchester1234 manchester12345 manchester2020
        manchester2021 manchester2022 manchester2023 manchester2024 manchester2025 manchester2026
        manchester69 manchester99 master01 master07 master1! master12 master123 master123! master12301
        master12307 master1231 master1231! master12312 master123123 master123123! master1231234
        master12312345 master1232020 master1232021 master1232022 master1232023 master1232024 master1232025
        master1232026 master1234 master12345 master12369 master12399 master2020 master2021 master2022
        master2023 master2024 master2025 master2026 master69 master99 matrix01 matrix07 matrix1! matrix12
        matrix123 matrix123! matrix1234 matrix12345 matrix2020 matrix2021 matrix2022 matrix2023 matrix2024
        matrix2025 matrix2026 matrix69 matrix99 matthew! matthew01 matthew07 matthew1 matthew1! matthew12
        matthew123 matthew123! matthew1234 matthew12345 matthew2020 matthew2021 matthew2022 matthew2023
        matthew2024 matthew2025 matthew2026 matthew69 matthew99 mercedes mercedes! mercedes01 mercedes07
        mercedes1 mercedes1! mercedes12 mercedes123 mercedes123! mercedes1234 mercedes12345 mercedes2020
        mercedes2021 mercedes2022 mercedes2023 mercedes2024 mercedes2025 mercedes2026 mercedes69 mercedes99
        michael! michael01 michael07 michael1 michael1! michael12 michael123 michael123! michael1234
        michael12345 michael2020 michael2021 michael2022 michael2023 michael2024 michael2025 michael2026
        michael69 michael99 microsoft microsoft! microsoft01 microsoft07 microsoft1 microsoft1! microsoft12
        microsoft123 microsoft123! microsoft1234 microsoft12345 microsoft2020 microsoft2021 microsoft2022
        microsoft2023 microsoft2024 microsoft2025 microsoft2026 microsoft69 microsoft99 minecraft minecraft!
        minecraft01 minecraft07 minecraft1 minecraft1! minecraft12 minecraft123 minecraft123! minecraft1234
        minecraft12345 minecraft2020 minecraft2021 minecraft2022 minecraft2023 minecraft2024 minecraft2025
        minecraft2026 minecraft69 minecraft99 money123 money123! money1234 money12345 money2020 money2021
        money2022 money2023 money2024 money2025 money2026 monkey01 monkey07 monkey1! monkey12 monkey123
        monkey123! monkey1234 monkey12345 monkey2020 monkey2021 monkey2022 monkey2023 monkey2024 monkey2025
        monkey2026 monkey69 monkey99 mustang! mustang01 mustang07 mustang1 mustang1! mustang12 mustang123
        mustang123! mustang1234 mustang12345 mustang2020 mustang2021 mustang2022 mustang2023 mustang2024
        mustang2025 mustang2026 mustang69 mustang99 mypassword mypassword! mypassword01 mypassword07
        mypassword1 mypassword1! mypassword12 mypassword123 mypassword123! mypassword1234 mypassword12345
        mypassword2020 mypassword2021 mypassword2022 mypassword2023 mypassword2024 mypassword2025
        mypassword2026 mypassword69 mypassword99 naruto01 naruto07 naruto1! naruto12 naruto123 naruto123!
        naruto1234 naruto12345 naruto2020 naruto2021 naruto2022 naruto2023 naruto2024 naruto2025 naruto2026
        naruto69 naruto99 network! network01 network07 network1 network1! network12 network123 network123!
        network1234 network12345 network2020 network2021 network2022 network2023 network2024 network2025
        network2026 network69 network99 nopassword nopassword! nopassword01 nopassword07 nopassword1
        nopassword1! nopassword12 nopassword123 nopassword123! nopassword1234 nopassword12345 nopassword2020
        nopassword2021 nopassword2022 nopassword2023 nopassword2024 nopassword2025 nopassword2026
        nopassword69 nopassword99 oracle01 oracle07 oracle1! oracle12 oracle123 oracle123! oracle1234
        oracle12345 oracle2020 oracle2021 oracle2022 oracle2023 oracle2024 oracle2025 oracle2026 oracle69
        oracle99 orange01 orange07 orange1! orange12 orange123 orange123! orange1234 orange12345 orange2020
        orange2021 orange2022 orange2023 orange2024 orange2025 orange2026 orange69 orange99 p@ssw0rd
        p@ssw0rd! p@ssw0rd01 p@ssw0rd07 p@ssw0rd1 p@ssw0rd1! p@ssw0rd12 p@ssw0rd123 p@ssw0rd123!
        p@ssw0rd1234 p@ssw0rd12345 p@ssw0rd2020 p@ssw0rd2021 p@ssw0rd2022 p@ssw0rd2023 p@ssw0rd2024
        p@ssw0rd2025 p@ssw0rd2026 p@ssw0rd69 p@ssw0rd99 p@ssword p@ssword! p@ssword01 p@ssword07 p@ssword1
        p@ssword1! p@ssword12 p@ssword123 p@ssword123! p@ssword1234 p@ssword12345 p@ssword2020 p@ssword2021
        p@ssword2022 p@ssword2023 p@ssword2024 p@ssword2025 p@ssword2026 p@ssword69 p@ssword99 passpass
        passw0rd passw0rd! passw0rd01 passw0rd07 passw0rd1 passw0rd1! passw0rd12 passw0rd123 passw0rd123!
        passw0rd1234 passw0rd12345 passw0rd2020 passw0rd2021 passw0rd2022 passw0rd2023 passw0rd2024
        passw0rd2025 passw0rd2026 passw0rd69 passw0rd99 password password! password01 password07 password1
        password1! password12 password123 password123! password1234 password12345 password2020 password2021
        password2022 password2023 password2024 password2025 password2026 password69 password99 pepper01
        pepper07 pepper1! pepper12 pepper123 pepper123! pepper1234 pepper12345 pepper2020 pepper2021
        pepper2022 pepper2023 pepper2024 pepper2025 pepper2026 pepper69 pepper99 pokemon! pokemon01
        pokemon07 pokemon1 pokemon1! pokemon12 pokemon123 pokemon123! pokemon1234 pokemon12345 pokemon2020
        pokemon2021 pokemon2022 pokemon2023 pokemon2024 pokemon2025 pokemon2026 pokemon69 pokemon99 porsche!
        porsche01 porsche07 porsche1 porsche1! porsche12 porsche123 porsche123! porsche1234 porsche12345
        porsche2020 porsche2021 porsche2022 porsche2023 porsche2024 porsche2025 porsche2026 porsche69
        porsche99 princess princess! princess01 princess07 princess1 princess1! princess12 princess123
        princess123! princess1234 princess12345 princess2020 princess2021 princess2022 princess2023
        princess2024 princess2025 princess2026 princess69 princess99 private! private01 private07 private1
        private1! private12 private123 private123! private1234 private12345 private2020 private2021
        private2022 private2023 private2024 private2025 private2026 private69 private99 purple01 purple07
        purple1! purple12 purple123 purple123! purple1234 purple12345 purple2020 purple2021 purple2022
        purple2023 purple2024 purple2025 purple2026 purple69 purple99 q1w2e3r4 qazwsx01 qazwsx07 qazwsx1!
        qazwsx12 qazwsx123 qazwsx123! qazwsx1234 qazwsx12345 qazwsx2020 qazwsx2021 qazwsx2022 qazwsx2023
        qazwsx2024 qazwsx2025 qazwsx2026 qazwsx69 qazwsx99 qwer1234 qwerty01 qwerty07 qwerty1! qwerty12
        qwerty123 qwerty123! qwerty1234 qwerty12345 qwerty2020 qwerty2021 qwerty2022 qwerty2023 qwerty2024
        qwerty2025 qwerty2026 qwerty69 qwerty99 qwertyuiop qwertyuiop! qwertyuiop01 qwertyuiop07 qwertyuiop1
        qwertyuiop1! qwertyuiop12 qwertyuiop123 qwertyuiop123! qwertyuiop1234 qwertyuiop12345 qwertyuiop2020
        qwertyuiop2021 qwertyuiop2022 qwertyuiop2023 qwertyuiop2024 qwertyuiop2025 qwertyuiop2026
        qwertyuiop69 qwertyuiop99 ranger01 ranger07 ranger1! ranger12 ranger123 ranger123! ranger1234
        ranger12345 ranger2020 ranger2021 ranger2022 ranger2023 ranger2024 ranger2025 ranger2026 ranger69
        ranger99 robert01 robert07 robert1! robert12 robert123 robert123! robert1234 robert12345 robert2020
        robert2021 robert2022 robert2023 robert2024 robert2025 robert2026 robert69 robert99 roblox01
        roblox07 roblox1! roblox12 roblox123 roblox123! roblox1234 roblox12345 roblox2020 roblox2021
        roblox2022 roblox2023 roblox2024 roblox2025 roblox2026 roblox69 roblox99 sample01 sample07 sample1!
        sample12 sample123 sample123! sample1234 sample12345 sample2020 sample2021 sample2022 sample2023
        sample2024 sample2025 sample2026 sample69 sample99 samsung! samsung01 samsung07 samsung1 samsung1!
        samsung12 samsung123 samsung123! samsung1234 samsung12345 samsung2020 samsung2021 samsung2022
        samsung2023 samsung2024 samsung2025 samsung2026 samsung69 samsung99 secret01 secret07 secret1!
        secret12 secret123 secret123! secret1234 secret12345 secret2020 secret2021 secret2022 secret2023
        secret2024 secret2025 secret2026 secret69 secret99 security security! security01 security07
        security1 security1! security12 security123 security123! security1234 security12345 security2020
        security2021 security2022 security2023 security2024 security2025 security2026 security69 security99
        server01 server07 server1! server12 server123 server123! server1234 server12345 server2020
        server2021 server2022 server2023 server2024 server2025 server2026 server69 server99 shadow01
        shadow07 shadow1! shadow12 shadow123 shadow123! shadow1234 shadow12345 shadow2020 shadow2021
        shadow2022 shadow2023 shadow2024 shadow2025 shadow2026 shadow69 shadow99 silver01 silver07 silver1!
        silver12 silver123 silver123! silver1234 silver12345 silver2020 silver2021 silver2022 silver2023
        silver2024 silver2025 silver2026 silver69 silver99 soccer01 soccer07 soccer1! soccer12 soccer123
        soccer123! soccer1234 soccer12345 soccer2020 soccer2021 soccer2022 soccer2023 soccer2024 soccer2025
        soccer2026 soccer69 soccer99 spring01 spring07 spring1! spring12 spring123 spring123! spring1234
        spring12345 spring2020 spring2021 spring2022 spring2023 spring2024 spring2025 spring2026 spring69
        spring99 starwars starwars! starwars01 starwars07 starwars1 starwars1! starwars12 starwars123
        starwars123! starwars1234 starwars12345 starwars2020 starwars2021 starwars2022 starwars2023
        starwars2024 starwars2025 starwars2026 starwars69 starwars99 summer01 summer07 summer1! summer12
        summer123 summer123! summer1234 summer12345 summer2020 summer2021 summer2022 summer2023 summer2024
        summer2025 summer2026 summer69 summer99 sunshine sunshine! sunshine01 sunshine07 sunshine1
        sunshine1! sunshine12 sunshine123 sunshine123! sunshine1234 sunshine12345 sunshine2020 sunshine2021
        sunshine2022 sunshine2023 sunshine2024 sunshine2025 sunshine2026 sunshine69 sunshine99 superman
        superman! superman01 superman07 superman1 superman1! superman12 superman123 superman123!
        superman1234 superman12345 superman2020 superman2021 superman2022 superman2023 superman2024
        superman2025 superman2026 superman69 superman99 temp123! temp1234 temp12345 temp2020 temp2021
        temp2022 temp2023 temp2024 temp2025 temp2026 temporary temporary! temporary01 temporary07 temporary1
        temporary1! temporary12 temporary123 temporary123! temporary1234 temporary12345 temporary2020
        temporary2021 temporary2022 temporary2023 temporary2024 temporary2025 temporary2026 temporary69
        temporary99 test123! test1234 test12345 test2020 test2021 test2022 test2023 test2024 test2025
        test2026 tester01 tester07 tester1! tester12 tester123 tester123! tester1234 tester12345 tester2020
        tester2021 tester2022 tester2023 tester2024 tester2025 tester2026 tester69 tester99 testing!
        testing01 testing07 testing1 testing1! testing12 testing123 testing123! testing1234 testing12345
        testing2020 testing2021 testing2022 testing2023 testing2024 testing2025 testing2026 testing69
        testing99 thomas01 thomas07 thomas1! thomas12 thomas123 thomas123! thomas1234 thomas12345 thomas2020
        thomas2021 thomas2022 thomas2023 thomas2024 thomas2025 thomas2026 thomas69 thomas99 tigger01
        tigger07 tigger1! tigger12 tigger123 tigger123! tigger1234 tigger12345 tigger2020 tigger2021
        tigger2022 tigger2023 tigger2024 tigger2025 tigger2026 tigger69 tigger99 trustme! trustme01
        trustme07 trustme1 trustme1! trustme12 trustme123 trustme123! trustme1234 trustme12345 trustme2020
        trustme2021 trustme2022 trustme2023 trustme2024 trustme2025 trustme2026 trustme69 trustme99 trustno1
        trustno1! trustno101 trustno107 trustno11 trustno11! trustno112 trustno1123 trustno1123!
        trustno11234 trustno112345 trustno12020 trustno12021 trustno12022 trustno12023 trustno12024
        trustno12025 trustno12026 trustno169 trustno199 twitter! twitter01 twitter07 twitter1 twitter1!
        twitter12 twitter123 twitter123! twitter1234 twitter12345 twitter2020 twitter2021 twitter2022
        twitter2023 twitter2024 twitter2025 twitter2026 twitter69 twitter99 ubuntu01 ubuntu07 ubuntu1!
        ubuntu12 ubuntu123 ubuntu123! ubuntu1234 ubuntu12345 ubuntu2020 ubuntu2021 ubuntu2022 ubuntu2023
        ubuntu2024 ubuntu2025 ubuntu2026 ubuntu69 ubuntu99 welcome! welcome01 welcome07 welcome1 welcome1!
        welcome101 welcome107 welcome11 welcome11! welcome112 welcome1123 welcome1123! welcome11234
        welcome112345 welcome12 welcome12020 welcome12021 welcome12022 welcome12023 welcome12024
        welcome12025 welcome12026 welcome123 welcome123! welcome1234 welcome12345 welcome169 welcome199
        welcome2020 welcome2021 welcome2022 welcome2023 welcome2024 welcome2025 welcome2026 welcome69
        welcome99 whatever whatever! whatever01 whatever07 whatever1 whatever1! whatever12 whatever123
        whatever123! whatever1234 whatever12345 whatever2020 whatever2021 whatever2022 whatever2023
        whatever2024 whatever2025 whatever2026 whatever69 whatever99 windows! windows01 windows07 windows1
        windows1! windows12 windows123 windows123! windows1234 windows12345 windows2020 windows2021
        windows2022 windows2023 windows2024 windows2025 windows2026 windows69 windows99 winter01 winter07
        winter1! winter12 winter123 winter123! winter1234 winter12345 winter2020 winter2021 winter2022
        winter2023 winter2024 winter2025 winter2026 winter69 winter99 yellow01 yellow07 yellow1! yellow12
        yellow123 yellow123! yellow1234 yellow12345 yellow2020 yellow2021 yellow2022 yellow2023 yellow2024
        yellow2025 yellow2026 yellow69 yellow99 yourpassword yourpassword! yourpassword01 yourpassword07
        yourpassword1 yourpassword1! yourpassword12 yourpassword123 yourpassword123! yourpassword1234
        yourpassword12345 yourpassword2020 yourpassword2021 yourpassword2022 yourpassword2023
        yourpassword2024 yourpassword2025 yourpassword2026 yourpassword69 yourpassword99 zaq12wsx zaq12wsx!
        zaq12wsx01 zaq12wsx07 zaq12wsx1 zaq12wsx1! zaq12wsx12 zaq12wsx123 zaq12wsx123! zaq12wsx1234
        zaq12wsx12345 zaq12wsx2020 zaq12wsx2021 zaq12wsx2022 zaq12wsx2023 zaq12wsx2024 zaq12wsx2025
        zaq12wsx2026 zaq12wsx69 zaq12wsx99 zxcv1234 zxcvbnm! zxcvbnm01 zxcvbnm07 zxcvbnm1 zxcvbnm1!
        zxcvbnm12 zxcvbnm123 zxcvbnm123! zxcvbnm1234 zxcvbnm12345 zxcvbnm2020 zxcvbnm2021 zxcvbnm2022
        zxcvbnm2023 zxcvbnm2024 zxcvbnm2025 zxcvbnm2026 zxcvbnm69 zxcvbnm99
        """.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init))
}
