// Passwords of 8+ characters that top the public breach-frequency lists (shorter ones are
// refused by the length rule anyway). Compared case-insensitively.
const LIST = `password password1 password12 password123 password1234 passw0rd p@ssw0rd p@ssword
12345678 123456789 1234567890 12345678910 123123123 11111111 111111111 1111111111 00000000
000000000 88888888 87654321 987654321 0987654321 11223344 12341234 123qweasd 1q2w3e4r 1q2w3e4r5t
1qaz2wsx 1qazxsw2 qwerty12 qwerty123 qwerty1234 qwertyui qwertyuiop qwer1234 asdfghjk asdfghjkl
asdf1234 zxcvbnm1 zxcvbnm123 abcd1234 abc12345 abc123456 a1b2c3d4 aa123456 aaaaaaaa iloveyou
iloveyou1 iloveyou2 sunshine sunshine1 princess princess1 football football1 baseball baseball1
basketball welcome1 welcome123 trustno1 superman superman1 batman123 starwars starwars1 whatever
whatever1 letmein1 letmein123 dragon123 master123 monkey123 shadow123 michael1 jennifer jordan23
computer internet cheese123 chocolate butterfly charlie1 liverpool chelsea1 arsenal1 manchester
michelle jessica1 babygirl babygirl1 lovely123 loveyou1 flower123 freedom1 hello123 hellohello
helloworld changeme changeme1 default1 administrator admin123 admin1234 administrator1 root1234
secret123 mypassword mypassword1 newpassword qazwsxedc qazwsx123 zaq12wsx 1234qwer q1w2e3r4
q1w2e3r4t5 q1w2e3r4t5y6 12qwaszx 123abc123 a123456789 147258369 159753456 741852963 789456123
password! password1! qwerty1! welcome! summer2024 summer2025 winter2024 winter2025 spring2025
autumn2025 january1 football123 soccer123 hockey123 yankees1 cowboys1 steelers eagles123
pokemon1 minecraft fortnite1 naruto123 starwars123 matrix123 mustang1 corvette ferrari1 porsche1
qwerty11 1password 123password passwort motdepasse contraseña password2 password3 letmein!
test1234 testtest test12345 guest123 user1234 login123 access14 ashley12 daniel123 andrew123
thomas12 robert12 soccer12 killer12 pepper12 ginger12 tigger12 buster12 harley12 hunter12
ranger12 summer12 george12 jordan12 matthew1 maggie12 mercedes nicole12 jessica12 samsung1
samsung123 google123 facebook1 linkedin1 twitter1 yahoo123 parley123 chatbot1 chatbot123`;

const COMMON_PASSWORDS: ReadonlySet<string> = new Set(LIST.split(/\s+/).filter(Boolean));

export function isCommonPassword(password: string): boolean {
  return COMMON_PASSWORDS.has(password.toLowerCase());
}
