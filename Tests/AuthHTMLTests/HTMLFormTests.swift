import AuthHTML
import Testing

@Suite struct HTMLFormTests {
  static let django = """
    <!DOCTYPE html><html><body>
    <form method="post" action="/accounts/login/" id="login-form">
    <input type="hidden" name="csrfmiddlewaretoken" value="tok&amp;en">
    <input type="hidden" name="next" value="/accounts/profile/">
    <p><input type="text" name="username" id="id_username" required value=""></p>
    <p><input type="password" name="password" id="id_password" required></p>
    <p><button type="submit" name="go" value="1">Sign in</button></p>
    </form></body></html>
    """

  @Test func aDjangoLoginFormIsReadAsABrowserWouldSubmitIt() throws {
    let document = try HTMLDocument(parsing: Array(Self.django.utf8))
    let form = try #require(document.forms.first)
    #expect(form.id == "login-form")
    #expect(form.action == "/accounts/login/")
    #expect(form.method == "post")
    #expect(form.hasPasswordInput)
    #expect(form.entries.map(\.name) == ["csrfmiddlewaretoken", "next", "username", "password"])
    #expect(form.entries.first?.value == "tok&en")
    #expect(form.controls.filter(\.isHidden).count == 2)
    #expect(form.controls.filter(\.isTextEntry).map(\.name) == ["username"])
  }

  @Test func boxesSelectsTextareasAndDisabledControlsFollowTheSubmissionRules() throws {
    let html = """
      <form id=f>
        <input type=checkbox name=remember checked><input type=checkbox name=off value=x>
        <input type=radio name=r value=a><input type=radio name=r value=b checked>
        <select name=lang><option value=en>English<option value=zh selected>中文</select>
        <select name=first><option>One</option><option>Two</option></select>
        <textarea name=note>
      line</textarea>
        <input name=gone value=1 disabled>
        <fieldset disabled><input name=fenced value=1></fieldset>
        <input type=submit name=s value=go><input type=file name=upload><input value=anonymous>
      </form>
      <input form=f name=outside value=yes><input form=other name=elsewhere value=no>
      """
    let form = try #require(try HTMLDocument(parsing: Array(html.utf8)).forms.first)
    let entries = form.entries.map { "\($0.name)=\($0.value)" }
    #expect(entries == ["remember=on", "r=b", "lang=zh", "first=One", "note=line", "outside=yes"])
    #expect(form.method == "get")
    #expect(!form.hasPasswordInput)
  }

  @Test func formsAreListedInDocumentOrder() throws {
    let html = "<form id=a></form><div><form id=b><input type=password name=p></form></div>"
    let forms = try HTMLDocument(parsing: Array(html.utf8)).forms
    #expect(forms.map(\.id) == ["a", "b"])
    #expect(forms.map(\.hasPasswordInput) == [false, true])
  }
}
