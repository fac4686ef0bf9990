import UIKit

// Seed 002 (en): the two screens MainTransitioningDelegate animates between. In the seed's app
// the search box is an outlet wired in Interface Builder; here each controller finds it by its
// tag when its view loads, as code without a storyboard does.

let searchViewTag = 1001

class HomeController: UIViewController {
    var searchView: UIView!

    override func viewDidLoad() {
        super.viewDidLoad()
        searchView = view.viewWithTag(searchViewTag)
    }
}

class CompanySearchController: UIViewController {
    var searchView: UIView!

    override func viewDidLoad() {
        super.viewDidLoad()
        searchView = view.viewWithTag(searchViewTag)
    }
}
